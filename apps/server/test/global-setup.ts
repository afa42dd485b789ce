import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres } from './postgres-server.js';
import './provided-context.js';

async function checkReachable(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Read by scripts/test.mjs, whose summary says whether the PostgreSQL half ran. */
const statusFile = resolve(import.meta.dirname, '../../../.tmp/postgres-status.json');

function reportStatus(ran: boolean, detail: string): void {
  mkdirSync(dirname(statusFile), { recursive: true });
  writeFileSync(statusFile, JSON.stringify({ ran, detail }));
}

function banner(reason: string): void {
  const line = '!'.repeat(78);
  console.warn(
    `\n${line}\n!!  PostgreSQL half did NOT run: ${reason}\n!!  Only the SQLite half of the API tests ran.\n${line}\n`,
  );
}

/**
 * One PostgreSQL for the whole run (TEST_DATABASE_URL when given, else a throwaway cluster); each test file creates
 * its own database in it. Without PostgreSQL the SQLite half still runs, except under CI where that is a failure.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.TEST_DATABASE_URL;
  // Asked for by name, never a fallback: test:node's legs run SQLite only (the pg driver is the same JavaScript on
  // every Node; the first leg runs the PostgreSQL half), and say so in their summary.
  if (process.env.TEST_DIALECTS === 'sqlite') {
    project.provide('pgAdminUrl', null);
    reportStatus(false, 'TEST_DIALECTS=sqlite asked for the SQLite half only');
    return () => Promise.resolve();
  }
  try {
    if (given) {
      await checkReachable(given);
      project.provide('pgAdminUrl', given);
      console.info('[server tests] PostgreSQL: using TEST_DATABASE_URL');
      reportStatus(true, 'TEST_DATABASE_URL');
      return () => Promise.resolve();
    }
    const started = Date.now();
    const server = await startThrowawayPostgres();
    project.provide('pgAdminUrl', server.adminUrl);
    console.info(`[server tests] PostgreSQL ${server.version} started in ${Date.now() - started} ms`);
    reportStatus(true, `throwaway PostgreSQL ${server.version}`);
    return () => server.stop();
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n').join(' | ');
    if (process.env.CI === 'true') {
      throw new Error(`PostgreSQL is required under CI=true but could not be used: ${reason}`, { cause: error });
    }
    banner(reason);
    reportStatus(false, reason);
    project.provide('pgAdminUrl', null);
    return () => Promise.resolve();
  }
}
