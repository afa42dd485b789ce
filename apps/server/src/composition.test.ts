import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withTestApp, testDatabases } from '../test/harness.js';

const MODULES = path.join(import.meta.dirname, 'modules');

/** Every source file (not a test) under `folder`. */
async function sourcesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !/\.test\.ts$|fixtures\.ts$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe.each(testDatabases())('the composition root (%s)', (dialect) => {
  it('builds every repository, service and job of an app exactly once', async () => {
    const built = new Map<string, number>();
    await withTestApp(dialect, { onBuild: (name) => built.set(name, (built.get(name) ?? 0) + 1) }, async (t) => {
      // The app answers through what was built (the catalogue's services are the routes' own).
      expect(t.composition.services.songs).toBe(t.catalogue.songs);
      expect(t.composition.services.artists).toBe(t.catalogue.artists);
      expect((await t.as(null).get('/healthz')).statusCode).toBe(200);
    });
    const counts = Object.fromEntries(built);
    expect(
      Object.values(counts).every((count) => count === 1),
      JSON.stringify(counts),
    ).toBe(true);
    // The parts that used to be built several times, each by whoever needed it.
    for (const name of [
      'songsService',
      'songPagesService',
      'artistsService',
      'albumsService',
      'likesService',
      'playlistsService',
      'playsService',
      'searchService',
      'downloadsService',
      'usersService',
      'searchIndexRepository',
      'catalogueIndex',
      'blobReleaser',
      'sessions',
      'mediaHandler',
      'subsonicService',
    ]) {
      expect(counts[name], name).toBe(1);
    }
  });
});

describe('the modules', () => {
  it('build no repository and no service of their own: the composition root hands them over', async () => {
    const found: string[] = [];
    for (const file of await sourcesUnder(MODULES)) {
      const text = await readFile(file, 'utf8');
      const defined = new Set([...text.matchAll(/export function (create\w+)\(/g)].map((match) => match[1]));
      for (const match of text.matchAll(
        /\b(create\w*(?:Repository|Service))\(|\bnew (\w+(?:Service|Index|Marks))\(/g,
      )) {
        const name = match[1] ?? match[2] ?? '';
        // A repository may make itself again over a transaction, inside its own file.
        if (defined.has(name)) continue;
        found.push(`${path.relative(MODULES, file)}: ${name}`);
      }
    }
    expect(found).toEqual([]);
  });
});
