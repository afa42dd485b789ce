import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/dialects.js';
import { toneWav } from '../../test/media.js';
import { testBlobStore } from '../../test/stored.js';
import { encodeWav } from '../demo/wav.js';
import { composeCatalogue } from '../catalogue-composition.js';
import type { LocalBlobStore } from '../storage/local-blob-store.js';
import { importFolder } from './import-folder.js';
import { tagWav } from './tagged-wav.js';

/** A file name that would set a terminal's title and clear its screen if printed raw. */
const ESCAPING_NAME = 'Escape \u001b]0;pwned\u0007\u001b[2J.wav';

describeEachDialect('control characters in imported names (%s)', (t) => {
  let folder: string;
  let store: LocalBlobStore;

  beforeAll(async () => {
    store = testBlobStore(t.dataDir);
    folder = await mkdtemp(path.join(tmpdir(), 'tonearm-import-text-'));
    // No embedded cover: the generated one draws the title into an SVG, which libvips' XML parser reads.
    await writeFile(
      path.join(folder, 'titled.wav'),
      tagWav(toneWav(440), { title: 'Odd\uFFFE Title\u202E\u0085', artist: 'Art\u001bist\u2066', genre: 'Rock' }),
    );
    await writeFile(path.join(folder, ESCAPING_NAME), encodeWav(new Float32Array(4000).fill(0.2), 8000));
  });

  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('imports a title holding U+FFFE, and names from tags and file names without controls or overrides', async () => {
    const summary = await importFolder(
      composeCatalogue({ db: t.db, dialect: t.dialect, blobs: store }),
      store,
      folder,
      { defaultGenre: 'Experimental' },
    );
    expect(summary.notAdded).toEqual([]);
    expect(summary).toMatchObject({ added: 2, failed: 0 });
    const songs = await t.db.selectFrom('songs').select(['name', 'artist_id']).orderBy('name').execute();
    expect(songs.map((song) => song.name)).toEqual(['Escape ]0;pwned[2J', 'Odd Title']);
    const artists = await t.db.selectFrom('artists').select('name').orderBy('name').execute();
    expect(artists.map((artist) => artist.name)).toContain('Artist');
  });
});
