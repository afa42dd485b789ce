import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '../../..');
const SOURCES = path.join(ROOT, 'apps/server/src');

/** The fenced diagram under "## The server's parts" in docs/architecture.md, as lines. */
async function diagram(): Promise<string[]> {
  const text = await readFile(path.join(ROOT, 'docs/architecture.md'), 'utf8');
  const section = text.slice(text.indexOf("## The server's parts"));
  const start = section.indexOf('```\n') + 4;
  return section.slice(start, section.indexOf('```', start)).split('\n');
}

/** The folders a part of the diagram names (`name/`). */
function foldersIn(lines: readonly string[]): string[] {
  return lines.flatMap((line) =>
    [...line.matchAll(/(?<![\w./-])([a-z][a-z-]*)\/(?=\s|$)/g)].map((match) => match[1] ?? ''),
  );
}

/** The folders the dependency-cruiser rule keeps below the modules. */
async function ruleFolders(): Promise<string[]> {
  const config = (await import(pathToFileURL(path.join(ROOT, '.dependency-cruiser.mjs')).href)) as {
    default: { forbidden: { name: string; from: { path: string } }[] };
  };
  const rule = config.default.forbidden.find((candidate) => candidate.name === 'server-layers-below-modules');
  const list = /\(([^)]*)\)/.exec(rule?.from.path ?? '')?.[1] ?? '';
  return list.split('|');
}

describe("docs/architecture.md's diagram of the server's parts", () => {
  it('names every folder of apps/server/src, once', async () => {
    const entries = await readdir(SOURCES, { withFileTypes: true });
    const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    const named = foldersIn(await diagram());
    expect([...named].sort()).toEqual([...folders].sort());
  });

  it('puts below the modules exactly the folders dependency-cruiser keeps from importing them', async () => {
    const lines = await diagram();
    const below = lines.slice(lines.findIndex((line) => line.includes('none imports a module')) + 1);
    expect(below.length).toBeGreaterThan(0);
    expect(foldersIn(below).sort()).toEqual((await ruleFolders()).sort());
  });
});
