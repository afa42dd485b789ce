// A throwaway PostgreSQL for the benchmarks that seed a database (bench:catalogue, bench:subsonic). Run under tsx:
// it starts the cluster with the tests' own code (apps/server/test/postgres-server.ts).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from '../scripts/lib.mjs';

const require = createRequire(join(root, 'apps/server/package.json'));

/**
 * PostgreSQL when its server binaries are installed (a throwaway cluster with a database `name`, removed by `stop`);
 * null otherwise, with the reason printed.
 */
export async function throwawayPostgres(name) {
  const { startThrowawayPostgres } = await import('../apps/server/test/postgres-server.ts');
  try {
    const postgres = await startThrowawayPostgres();
    const pg = require('pg');
    const admin = new pg.Client({ connectionString: postgres.adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(postgres.adminUrl);
    url.pathname = `/${name}`;
    return { url: url.toString(), version: postgres.version, stop: postgres.stop };
  } catch (error) {
    console.log(`PostgreSQL is not measured: ${error.message}`);
    return null;
  }
}
