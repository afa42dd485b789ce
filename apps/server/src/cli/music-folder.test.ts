import { execFile, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, mkdtemp, open, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/dialects.js';
import { picture, toneWav } from '../../test/media.js';
import { songCount, testBlobStore } from '../../test/stored.js';
import { composeCatalogue } from '../catalogue-composition.js';
import { findFolderCover } from '../modules/libraries/folder-covers.js';
import { importFolder, type ImportSummary } from './import-folder.js';
import { MusicFolder, SkipReasons } from '../modules/libraries/music-folder.js';
import { tagWav } from './tagged-wav.js';
import { reconcile } from './watch-folder.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Tests that would wait on a FIFO if the rule were broken fail after this instead of hanging the run. */
const FIFO_TIMEOUT = { timeout: 15_000 };

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const song = (title: string, frequency: number) => tagWav(toneWav(frequency), { title, genre: 'Rock' });

/**
 * A music folder next to an `outside` folder, with every kind of entry the rule is about:
 *
 *   outside/  secret.wav  album/deep.wav  cover.png  pipe (a FIFO)
 *   music/    Album/01.wav  Album/cover.png → outside/cover.png  Album/loop → Album
 *             Covered/04.wav  Covered/cover.png → outside/cover.png  Covered/folder.png
 *             Passwd/02.wav  Passwd/cover.jpg → /etc/passwd
 *             Fifo Cover/03.wav  Fifo Cover/cover.jpg → outside/pipe
 *             linked.wav → outside/secret.wav  Linked Album → outside/album  x.wav → /etc/passwd
 *             pipe.wav (a FIFO)  outside-pipe.wav → outside/pipe  self.wav → self.wav
 *             again.wav → Album/01.wav  Best Of → Album  .hidden/h.wav  peek.wav → .hidden/h.wav
 */
class LinkedFolder {
  readonly outside: string;
  readonly music: string;
  readonly fifos: string[];
  readonly outsideCover: Buffer;
  readonly insideCover: Buffer;

  constructor(
    readonly base: string,
    covers: { outside: Buffer; inside: Buffer },
  ) {
    this.outside = path.join(base, 'outside');
    this.music = path.join(base, 'music');
    this.fifos = [path.join(this.outside, 'pipe'), path.join(this.music, 'pipe.wav')];
    this.outsideCover = covers.outside;
    this.insideCover = covers.inside;
  }

  static async make(): Promise<LinkedFolder> {
    const base = await mkdtemp(path.join(tmpdir(), 'tonearm-links-'));
    const folder = new LinkedFolder(base, { outside: await picture(41), inside: await picture(42) });
    await folder.write();
    return folder;
  }

  at(...parts: string[]): string {
    return path.join(this.music, ...parts);
  }

  private async write(): Promise<void> {
    const { outside, music } = this;
    for (const dir of [outside, path.join(outside, 'album'), music]) await mkdir(dir, { recursive: true });
    for (const dir of ['Album', 'Covered', 'Passwd', 'Fifo Cover', '.hidden']) await mkdir(path.join(music, dir));
    await writeFile(path.join(outside, 'secret.wav'), song('Outside Secret', 310));
    await writeFile(path.join(outside, 'album', 'deep.wav'), song('Outside Deep', 320));
    await writeFile(path.join(outside, 'cover.png'), this.outsideCover);
    await writeFile(this.at('Album', '01.wav'), song('Inside One', 410));
    await writeFile(this.at('Passwd', '02.wav'), song('Inside Two', 420));
    await writeFile(this.at('Fifo Cover', '03.wav'), song('Inside Three', 430));
    await writeFile(this.at('Covered', '04.wav'), song('Inside Four', 440));
    await writeFile(this.at('Covered', 'folder.png'), this.insideCover);
    await writeFile(this.at('.hidden', 'h.wav'), song('Hidden', 450));
    for (const fifo of this.fifos) execFileSync('mkfifo', [fifo]);
    const links: [string, string][] = [
      [path.join(outside, 'cover.png'), this.at('Album', 'cover.png')],
      [this.at('Album'), this.at('Album', 'loop')],
      [path.join(outside, 'cover.png'), this.at('Covered', 'cover.png')],
      ['/etc/passwd', this.at('Passwd', 'cover.jpg')],
      [path.join(outside, 'pipe'), this.at('Fifo Cover', 'cover.jpg')],
      [path.join(outside, 'secret.wav'), this.at('linked.wav')],
      [path.join(outside, 'album'), this.at('Linked Album')],
      ['/etc/passwd', this.at('x.wav')],
      [path.join(outside, 'pipe'), this.at('outside-pipe.wav')],
      [this.at('self.wav'), this.at('self.wav')],
      [this.at('Album', '01.wav'), this.at('again.wav')],
      [this.at('Album'), this.at('Best Of')],
      [this.at('.hidden', 'h.wav'), this.at('peek.wav')],
    ];
    for (const [target, link] of links) await symlink(target, link);
  }

  /** What the whole folder's walk skips, by path relative to the music folder. */
  static readonly SKIPPED: Readonly<Record<string, string>> = {
    [path.join('Album', 'cover.png')]: SkipReasons.outside,
    [path.join('Album', 'loop')]: SkipReasons.loop,
    [path.join('Covered', 'cover.png')]: SkipReasons.outside,
    [path.join('Fifo Cover', 'cover.jpg')]: SkipReasons.outside,
    [path.join('Passwd', 'cover.jpg')]: SkipReasons.outside,
    'Linked Album': SkipReasons.outside,
    'linked.wav': SkipReasons.outside,
    'outside-pipe.wav': SkipReasons.outside,
    'peek.wav': SkipReasons.hidden,
    'pipe.wav': SkipReasons.special,
    'self.wav': SkipReasons.linkCycle,
    'x.wav': SkipReasons.outside,
  };

  /** The audio files the whole folder's walk finds, in order. */
  static readonly FILES = [
    path.join('Album', '01.wav'),
    path.join('Covered', '04.wav'),
    path.join('Fifo Cover', '03.wav'),
    path.join('Passwd', '02.wav'),
  ];

  relative(file: string): string {
    return path.relative(this.music, file);
  }

  skippedOf(summary: Pick<ImportSummary, 'skippedEntries'>): Record<string, string> {
    return Object.fromEntries(summary.skippedEntries.map((entry) => [this.relative(entry.path), entry.reason]));
  }

  /** Lets go of anything stuck opening one of the FIFOs (only a broken rule would be), so nothing hangs after a test. */
  async release(): Promise<void> {
    for (const fifo of this.fifos) {
      try {
        await (await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK)).close();
      } catch {
        // No reader waiting (ENXIO): nothing to let go of.
      }
    }
  }

  async remove(): Promise<void> {
    await this.release();
    await rm(this.base, { recursive: true, force: true });
  }
}

describe('the music folder rule (music-folder.ts)', () => {
  let fixture: LinkedFolder;
  let folder: MusicFolder;

  beforeAll(async () => {
    fixture = await LinkedFolder.make();
    folder = await MusicFolder.at(fixture.music);
  });

  afterAll(async () => {
    await fixture.remove();
  });

  it(
    'walks only what is inside the folder, in order, and reports each link and FIFO it skipped',
    FIFO_TIMEOUT,
    async () => {
      const walk = await folder.walk();
      expect(walk.files.map((file) => fixture.relative(file))).toEqual(LinkedFolder.FILES);
      expect(fixture.skippedOf({ skippedEntries: walk.skipped })).toEqual(LinkedFolder.SKIPPED);
      const paths = walk.skipped.map((entry) => entry.path);
      expect(paths).toEqual([...paths].sort((a, b) => a.localeCompare(b)));
    },
  );

  it('follows a link inside the folder once: its file is found under its own path', async () => {
    for (const scope of ['Best Of', 'again.wav', path.join('Best Of', '01.wav'), 'Album']) {
      const walk = await folder.walk(fixture.at(scope));
      expect(
        walk.files.map((file) => fixture.relative(file)),
        scope,
      ).toEqual([path.join('Album', '01.wav')]);
    }
    // The linked folder is walked as the folder it is: what it skips is named under its own path.
    expect(fixture.skippedOf({ skippedEntries: (await folder.walk(fixture.at('Best Of'))).skipped })).toEqual({
      [path.join('Album', 'cover.png')]: SkipReasons.outside,
      [path.join('Album', 'loop')]: SkipReasons.loop,
    });
  });

  it('walking one entry (a watch event) skips it for the same reason as the whole walk', FIFO_TIMEOUT, async () => {
    for (const [relative, reason] of Object.entries(LinkedFolder.SKIPPED)) {
      const walk = await folder.walk(fixture.at(relative));
      expect(walk.files, relative).toEqual([]);
      expect(fixture.skippedOf({ skippedEntries: walk.skipped }), relative).toEqual({ [relative]: reason });
    }
    const throughLink = await folder.walk(fixture.at('Linked Album', 'deep.wav'));
    expect(throughLink).toEqual({
      files: [],
      skipped: [{ path: fixture.at('Linked Album', 'deep.wav'), reason: SkipReasons.outside }],
    });
    expect(await folder.walk(fixture.at('.hidden', 'h.wav'))).toEqual({ files: [], skipped: [] });
  });

  it('never opens a link out of the folder or a FIFO', FIFO_TIMEOUT, async () => {
    let opened = 0;
    const use = () => Promise.resolve((opened += 1));
    expect(await folder.withFile(fixture.at('x.wav'), use)).toEqual({ skip: SkipReasons.outside });
    expect(await folder.withFile(fixture.at('linked.wav'), use)).toEqual({ skip: SkipReasons.outside });
    expect(await folder.withFile(fixture.at('outside-pipe.wav'), use)).toEqual({ skip: SkipReasons.outside });
    expect(await folder.withFile(fixture.at('pipe.wav'), use)).toEqual({ skip: SkipReasons.special });
    expect(opened).toBe(0);
    expect(await folder.withFile(fixture.at('again.wav'), (handle) => handle.readFile())).toEqual({
      value: song('Inside One', 410),
    });
  });

  it('passes over a cover that is a link out of the folder, for the next one inside it', async () => {
    expect(await findFolderCover(folder, fixture.at('Album'))).toBeNull();
    expect(await findFolderCover(folder, fixture.at('Passwd'))).toBeNull();
    expect(await findFolderCover(folder, fixture.at('Fifo Cover'))).toBeNull();
    expect(await findFolderCover(folder, fixture.at('Covered'))).toBe(fixture.at('Covered', 'folder.png'));
  });
});

describeEachDialect('links and FIFOs in an imported folder (%s)', { uses: 'database', fresh: 'each' }, (t) => {
  let fixture: LinkedFolder;

  beforeAll(async () => {
    fixture = await LinkedFolder.make();
  });

  afterAll(async () => {
    await fixture.remove();
  });

  const catalogue = () => {
    const store = testBlobStore(t.database.dataDir);
    return { catalogue: composeCatalogue({ db: t.database.db, dialect: t.database.dialect, blobs: store }), store };
  };

  const songNames = async () =>
    (await t.db.selectFrom('songs').select('name').orderBy('name').execute()).map((row) => row.name);

  const imageKeyOf = async (name: string) =>
    (await t.db.selectFrom('songs').select('image_key').where('name', '=', name).executeTakeFirstOrThrow()).image_key;

  /** What both modes must agree on after reading the whole folder. */
  async function expectOnlyTheInside(summary: ImportSummary): Promise<void> {
    expect(summary).toMatchObject({ total: 4, added: 4, failed: 0 });
    expect(fixture.skippedOf(summary)).toEqual(LinkedFolder.SKIPPED);
    expect(await songNames()).toEqual(['Inside Four', 'Inside One', 'Inside Three', 'Inside Two']);
    // The cover linked from outside is not used: Album's song gets a generated one, Covered's its folder.png.
    expect(await imageKeyOf('Inside One')).not.toContain(sha256(fixture.outsideCover));
    expect(await imageKeyOf('Inside Four')).toContain(sha256(fixture.insideCover));
    // /etc/passwd as cover.jpg was never read, so there is no warning about it not being an image.
    expect(summary.warnings).toEqual([]);
  }

  it('the plain import reads only what is inside the folder and reports the rest', FIFO_TIMEOUT, async () => {
    const { catalogue: songs, store } = catalogue();
    await expectOnlyTheInside(await importFolder(songs, store, fixture.music));
  });

  it('--watch reads the same files and skips the same entries as the plain import', FIFO_TIMEOUT, async () => {
    const { catalogue: songs, store } = catalogue();
    const pass = await reconcile(songs, store, fixture.music, [fixture.music], {});
    await expectOnlyTheInside(pass.summary);
  });

  it(
    '--watch: events naming links out of the folder, /etc/passwd, a FIFO or a loop import nothing',
    FIFO_TIMEOUT,
    async () => {
      const { catalogue: songs, store } = catalogue();
      const named = ['linked.wav', 'Linked Album', path.join('Linked Album', 'deep.wav'), 'x.wav', 'pipe.wav'];
      const scopes = [...named, 'outside-pipe.wav', path.join('Album', 'loop')].map((scope) => fixture.at(scope));
      const pass = await reconcile(songs, store, fixture.music, scopes, {});
      expect(pass.summary).toMatchObject({ total: 0, added: 0 });
      expect(fixture.skippedOf(pass.summary)).toEqual({
        [path.join('Album', 'loop')]: SkipReasons.loop,
        'Linked Album': SkipReasons.outside,
        [path.join('Linked Album', 'deep.wav')]: SkipReasons.outside,
        'linked.wav': SkipReasons.outside,
        'outside-pipe.wav': SkipReasons.outside,
        'pipe.wav': SkipReasons.special,
        'x.wav': SkipReasons.outside,
      });
      expect(await songCount(t.db)).toBe(0);
    },
  );

  it('--watch: a link inside the folder is followed once, its file imported once under its own path', async () => {
    const { catalogue: songs, store } = catalogue();
    const scopes = ['Best Of', 'again.wav', 'Album'].map((scope) => fixture.at(scope));
    const pass = await reconcile(songs, store, fixture.music, scopes, {});
    expect(pass.summary).toMatchObject({ total: 1, added: 1, skipped: 0 });
    expect(await songNames()).toEqual(['Inside One']);
    const sources = await t.db.selectFrom('import_sources').select('path').execute();
    expect(sources.map((source) => fixture.relative(source.path))).toEqual([path.join('Album', '01.wav')]);
  });

  it('--watch: a file replaced by a link out of the folder is not read; its song goes', async () => {
    const { catalogue: songs, store } = catalogue();
    const music = path.join(fixture.base, 'replaced');
    await mkdir(music);
    const file = path.join(music, 'song.wav');
    await writeFile(file, song('Replaced Soon', 460));
    expect((await reconcile(songs, store, music, [music], {})).summary).toMatchObject({ added: 1 });
    await unlink(file);
    await symlink(path.join(fixture.outside, 'secret.wav'), file);
    const pass = await reconcile(songs, store, music, [file], {});
    expect(pass.summary).toMatchObject({ total: 0, updated: 0 });
    expect(pass.summary.skippedEntries).toEqual([{ path: file, reason: SkipReasons.outside }]);
    expect(pass.removed).toEqual([file]);
    expect(await songNames()).toEqual([]);
  });
});

describe('npm run import: what it prints about links and file names', () => {
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'tonearm-links-cli-'));
    const music = path.join(work, 'music');
    await mkdir(music);
    await writeFile(path.join(music, 'plain.wav'), song('Plain', 470));
    await writeFile(path.join(music, 'red\x1b[31m.wav'), toneWav(480));
    await symlink('/etc/passwd', path.join(music, 'evil\x1b]0;owned\x07\x1b[2J\u202evaw.wav'));
  });

  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  const env = (data: string) => ({ ...process.env, DATA_DIR: path.join(work, data), DATABASE_URL: '', INIT_CWD: ROOT });
  const SKIPPED_LINE = `skipped: evil\\x1b]0;owned\\x07\\x1b[2J\\u202evaw.wav: ${SkipReasons.outside}`;
  const UNTAGGED_LINE = 'skipped: red\\x1b[31m.wav: no tags at all';

  function expectEscaped(output: string): void {
    expect(output).toContain(SKIPPED_LINE);
    expect(output).toContain(UNTAGGED_LINE);
    for (const raw of ['\x1b', '\x07', '\u202e']) expect(output).not.toContain(raw);
  }

  it('the import prints a line per skipped link, with control characters escaped', { timeout: 60_000 }, async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli/import.ts', path.join(work, 'music')],
      {
        cwd: ROOT,
        env: env('data'),
      },
    );
    expectEscaped(stdout);
    expect(stdout).toMatch(/Imported 1 of 2 files/);
  });

  it('--watch prints the same lines, escaped the same way', { timeout: 60_000 }, async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli/import.ts', path.join(work, 'music'), '--watch'],
      {
        cwd: ROOT,
        env: env('watch-data'),
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const until = Date.now() + 30_000;
      while (!output.includes('Watching')) {
        if (Date.now() > until) throw new Error(`no "Watching" in: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expectEscaped(output);
  });
});
