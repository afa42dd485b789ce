import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OpenFiles, type OpenFile } from './open-files.js';

let root: string;
const stat = () => ({ size: 5, mtimeMs: 1 });

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'tonearm-open-files-'));
  for (const name of ['a', 'b', 'c']) await writeFile(path.join(root, name), 'bytes');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function openCount(name: string): number {
  const file = path.join(root, name);
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  }).length;
}

function acquire(files: OpenFiles, name: string, blobStat: ReturnType<typeof stat>): Promise<OpenFile> {
  return new Promise((resolve, reject) => {
    files.acquire(path.join(root, name), blobStat, resolve, reject);
  });
}

const closed = (name: string) => vi.waitFor(() => expect(openCount(name)).toBe(0));

describe('OpenFiles', () => {
  it('shares one descriptor for the same stat answer, and closes it when expired and unused', async () => {
    let now = 0;
    const files = new OpenFiles(10, 1000, () => now);
    const blobStat = stat();
    const first = await acquire(files, 'a', blobStat);
    const second = await acquire(files, 'a', blobStat);
    expect(second.fd).toBe(first.fd);
    expect(openCount('a')).toBe(1);
    files.release(first);
    files.release(second);

    now = 1000;
    const third = await acquire(files, 'a', blobStat);
    expect(third.fd).not.toBe(first.fd);
    // The expired one had no reader left: closed when replaced.
    await vi.waitFor(() => expect(openCount('a')).toBe(1));
    files.release(third);
    files.closeAll();
    await closed('a');
  });

  it('opens once for requests that arrive while the same file is being opened', async () => {
    const files = new OpenFiles(8, 60_000);
    const same = stat();
    const all = await Promise.all([acquire(files, 'c', same), acquire(files, 'c', same), acquire(files, 'c', same)]);
    expect(new Set(all.map((file) => file.fd)).size).toBe(1);
    expect(all[0].users).toBe(3);
    expect(openCount('c')).toBe(1);
    for (const file of all) files.release(file);
    files.closeAll();
    await closed('c');
  });

  it('opens afresh for a new stat answer (the blob was forgotten), closing the old one after its last reader', async () => {
    const files = new OpenFiles();
    const old = await acquire(files, 'b', stat());
    const fresh = await acquire(files, 'b', stat());
    expect(fresh.fd).not.toBe(old.fd);
    expect(openCount('b')).toBe(2);
    files.release(old);
    await vi.waitFor(() => expect(openCount('b')).toBe(1));
    files.release(fresh);
    files.closeAll();
    await closed('b');
  });

  it('keeps at most maxFiles open, evicting the oldest once nobody reads it', async () => {
    const files = new OpenFiles(2);
    const a = await acquire(files, 'a', stat());
    files.release(await acquire(files, 'b', stat()));
    files.release(await acquire(files, 'c', stat()));
    expect(files.size).toBe(2);
    expect(openCount('a')).toBe(1);
    files.release(a);
    await closed('a');
    files.closeAll();
    await closed('b');
    await closed('c');
  });

  it('passes on open errors and remembers nothing', async () => {
    const files = new OpenFiles();
    await expect(acquire(files, 'missing', stat())).rejects.toMatchObject({ code: 'ENOENT' });
    expect(files.size).toBe(0);
    files.closeAll();
  });
});
