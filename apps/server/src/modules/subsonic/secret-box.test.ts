import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KEY_FILE_NAME, SecretBox } from './secret-box.js';

describe('SecretBox', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tonearm-secret-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const keyed = () => new SecretBox('k'.repeat(40), dir);

  it('seals with AES-256-GCM under a fresh IV each time, versioned, and opens what it sealed', async () => {
    const box = keyed();
    const first = await box.seal('abcd-efgh', 'users:1');
    const second = await box.seal('abcd-efgh', 'users:1');
    expect(first).toMatch(/^v1:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('abcd');
    expect(await box.open(first, 'users:1')).toBe('abcd-efgh');
    expect(await box.open(second, 'users:1')).toBe('abcd-efgh');
  });

  it('opens nothing sealed under another key, for another context, changed, or of an unknown format', async () => {
    const sealed = await keyed().seal('secret', 'users:1');
    expect(await new SecretBox('m'.repeat(40), dir).open(sealed, 'users:1')).toBeNull();
    expect(await keyed().open(sealed, 'users:2')).toBeNull();
    const [version, iv, tag, data] = sealed.split(':') as [string, string, string, string];
    const flipped = `${data.slice(0, -2)}${data.endsWith('AA') ? 'AB' : 'AA'}`;
    expect(await keyed().open([version, iv, tag, flipped].join(':'), 'users:1')).toBeNull();
    expect(await keyed().open(['v2', iv, tag, data].join(':'), 'users:1')).toBeNull();
    expect(await keyed().open(`${sealed}:more`, 'users:1')).toBeNull();
    expect(await keyed().open('plain text', 'users:1')).toBeNull();
    expect(await keyed().open(['v1', 'AA', tag, data].join(':'), 'users:1')).toBeNull();
  });

  it('without SECRET_KEY, makes a 0600 key file in the data directory on first use, and reads it after', async () => {
    const dataDir = path.join(dir, 'data');
    const box = new SecretBox(null, dataDir);
    const file = path.join(dataDir, KEY_FILE_NAME);
    await expect(stat(file)).rejects.toThrow();
    // Two first uses at once agree on one key.
    const [a, b] = await Promise.all([box.seal('one', 'c'), new SecretBox(null, dataDir).seal('two', 'c')]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toMatch(/^[0-9a-f]{64}$/);
    const later = new SecretBox(null, dataDir);
    expect(await later.open(a, 'c')).toBe('one');
    expect(await later.open(b, 'c')).toBe('two');
    // SECRET_KEY is another key: the file's values do not open under it.
    expect(await keyed().open(a, 'c')).toBeNull();
  });

  it('refuses a damaged key file rather than making a new key', async () => {
    await writeFile(path.join(dir, KEY_FILE_NAME), 'not a key\n');
    await expect(new SecretBox(null, dir).seal('x', 'c')).rejects.toThrow(/64 hexadecimal digits/);
  });
});
