import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { encodeAudio, encodePicture, requireFfmpeg } from '../../../test/audio-formats.js';
import { UNREADABLE } from './scan-file.js';
import { createScanReader, SCAN_THREAD_NICE } from './scan-readers.js';

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
      return await Promise.all(names.map((name, at) => reader.read(root, path.join(root, name), sizes[at] ?? 0, null)));
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

/** The nice value of each of this process's threads, by thread id (Linux: /proc/self/task/<id>/stat, field 19). */
async function threadNices(): Promise<Map<number, number>> {
  const nices = new Map<number, number>();
  for (const id of await readdir('/proc/self/task')) {
    const stat = await readFile(`/proc/self/task/${id}/stat`, 'utf8').catch(() => null);
    const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields?.[16] !== undefined) nices.set(Number(id), Number(fields[16]));
  }
  return nices;
}

it.runIf(process.platform === 'linux')(
  'runs its scan threads at nice 10, leaving the main thread as it was',
  async () => {
    const before = await threadNices();
    const reader = createScanReader(1);
    try {
      await reader.read(root, path.join(root, 'a.mp3'), (await stat(path.join(root, 'a.mp3'))).size, null);
      const after = await threadNices();
      const started = [...after].filter(([id]) => !before.has(id));
      expect(started.map(([, nice]) => nice)).toContain(SCAN_THREAD_NICE);
      expect(after.get(process.pid)).toBe(before.get(process.pid));
    } finally {
      await reader.close();
    }
  },
);
