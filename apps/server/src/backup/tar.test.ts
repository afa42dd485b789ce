import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DamagedArchiveError, openEntry, readTarIndex, TarWriter } from './tar.js';

const run = promisify(execFile);

describe('tar archives', () => {
  let dir: string;
  let file: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tonearm-tar-'));
    file = path.join(dir, 'a.tar');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const longName = `blobs/image/${'a'.repeat(150)}.webp`;

  async function write(): Promise<void> {
    const tar = await TarWriter.create(file);
    await tar.add('short.txt', Buffer.from('hello'));
    await tar.add(longName, Readable.from([Buffer.alloc(700, 1), Buffer.alloc(300, 2)]));
    await tar.add('empty', Buffer.alloc(0));
    await tar.finish();
  }

  it('writes entries that GNU tar lists and extracts, long names included, and reads them back', async () => {
    await write();
    const { stdout } = await run('tar', ['tf', file]);
    expect(stdout.split('\n').filter(Boolean)).toEqual(['short.txt', longName, 'empty']);
    await run('tar', ['xf', file, '-C', dir]);
    expect(await readFile(path.join(dir, longName))).toEqual(
      Buffer.concat([Buffer.alloc(700, 1), Buffer.alloc(300, 2)]),
    );

    const index = await readTarIndex(file);
    expect(index.map((entry) => [entry.name, entry.size])).toEqual([
      ['short.txt', 5],
      [longName, 1000],
      ['empty', 0],
    ]);
    const [short, , empty] = index;
    if (short === undefined || empty === undefined) throw new Error('entries missing');
    expect(await text(openEntry(file, short))).toBe('hello');
    expect(await text(openEntry(file, empty))).toBe('');
  });

  it('leaves nothing of an entry whose source fails, and refuses to overwrite a file', async () => {
    const tar = await TarWriter.create(file);
    await tar.add('kept', Buffer.from('kept'));
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1024));
        this.destroy(new Error('gone'));
      },
    });
    await expect(tar.add('lost', failing)).rejects.toThrow('gone');
    await tar.finish();
    expect((await readTarIndex(file)).map((entry) => entry.name)).toEqual(['kept']);
    await expect(TarWriter.create(file)).rejects.toThrow(/EEXIST/);
  });

  it('refuses a damaged header and an archive cut short', async () => {
    await write();
    const bytes = await readFile(file);
    const broken = Buffer.from(bytes);
    broken[10] = 0x41;
    await writeFile(file, broken);
    await expect(readTarIndex(file)).rejects.toThrow(DamagedArchiveError);
    await writeFile(file, bytes.subarray(0, 1024));
    await expect(readTarIndex(file)).rejects.toThrow(/ends in the middle/);
  });
});
