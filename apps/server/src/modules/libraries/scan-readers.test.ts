import { mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { encodeAudio, encodePicture, requireFfmpeg } from '../../../test/audio-formats.js';
import { UNREADABLE } from './scan-file.js';
import { createScanReader } from './scan-readers.js';

let base: string;
let root: string;

beforeAll(async () => {
  requireFfmpeg();
  base = await mkdtemp(path.join(tmpdir(), 'tonearm-scan-readers-'));
  root = path.join(base, 'Music');
  await mkdir(root);
  const picture = path.join(base, 'cover.png');
  await encodePicture(picture, 64, 'blue');
  await encodeAudio(path.join(root, 'a.mp3'), 'mp3', { tags: { title: 'A', artist: 'Ann' }, picture });
  await encodeAudio(path.join(root, 'b.flac'), 'flac', { tags: { title: 'B', album: 'Bee' }, frequency: 550 });
  await encodeAudio(path.join(root, 'c.ogg'), 'ogg', { tags: { title: 'C' }, frequency: 660 });
  await writeFile(path.join(root, 'noise.flac'), Buffer.alloc(3000, 7));
  await writeFile(path.join(base, 'outside.mp3'), 'outside');
  await symlink(path.join(base, 'outside.mp3'), path.join(root, 'escape.mp3'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

it('reads the same in scan threads as in the main thread: tags, fingerprints, covers and problems', async () => {
  const names = ['a.mp3', 'b.flac', 'c.ogg', 'noise.flac', 'escape.mp3', 'gone.mp3'];
  const sizes = await Promise.all(
    names.map((name) =>
      stat(path.join(root, name)).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  const readAll = async (threads: number) => {
    const reader = createScanReader(threads);
    try {
      return await Promise.all(names.map((name, at) => reader.read(root, path.join(root, name), sizes[at] ?? 0)));
    } finally {
      await reader.close();
    }
  };
  const [here, threaded, two] = [await readAll(0), await readAll(1), await readAll(2)];
  expect(threaded).toEqual(here);
  expect(two).toEqual(here);
  const [a, b, c, noise, escape, gone] = here;
  expect(a).toMatchObject({ read: { tags: { title: 'A', artist: 'Ann', picture: null } } });
  expect(a && 'embeddedCoverKey' in a ? a.embeddedCoverKey : null).toMatch(/^[0-9a-f]{64}\.png$/);
  expect(b).toMatchObject({ read: { tags: { title: 'B', album: 'Bee' } }, embeddedCoverKey: null });
  expect(c).toMatchObject({ read: { tags: { title: 'C' } } });
  // Not audio: its fingerprint still (a moved song is recognised by it), no tags.
  expect(noise).toMatchObject({ read: null });
  expect(noise && 'fingerprint' in noise ? noise.fingerprint : null).toMatch(/^3000:[0-9a-f]{40}$/);
  expect(escape).toEqual({ problem: 'a link to outside the music folder' });
  expect(gone).toEqual({ problem: 'it changed while it was being read' });
  expect(UNREADABLE).toContain('cannot be read');
});
