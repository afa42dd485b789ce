// `npm test`: every check the project has, in one command. Each step runs even when an earlier one failed (so one
// run shows everything), except that end-to-end tests need a built web app and server. Ends with a summary and the
// plain closing line "tests: N passed, N failed".
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureServerBuilt } from './build-server.mjs';
import { bin, ensureWebBuilt, playwrightFailures, printFailures, readJson, root, run, vitestFailures } from './lib.mjs';

const tmp = join(root, '.tmp');
mkdirSync(tmp, { recursive: true });
const vitestReport = join(tmp, 'vitest.json');
const playwrightReport = join(tmp, 'playwright.json');
const postgresStatus = join(tmp, 'postgres-status.json');
for (const file of [vitestReport, playwrightReport, postgresStatus]) rmSync(file, { force: true });

const steps = [];
async function step(name, command, args, options) {
  console.log(`\n▶ ${name}`);
  const result = await run(command, args, options);
  steps.push({ name, ...result });
  return result.code === 0;
}

const started = Date.now();
await step('format (prettier)', bin('prettier'), ['--check', '--log-level', 'warn', '.']);
// Two worker threads (each with its own TypeScript program): 73 s instead of 107 here.
await step('lint (eslint)', bin('eslint'), ['--max-warnings', '0', '--concurrency', '2', '.']);
for (const project of ['.', 'packages/contract', 'apps/server', 'apps/web', 'e2e']) {
  await step(`typecheck ${project === '.' ? 'root configs' : project}`, bin('tsc'), ['-p', project, '--noEmit']);
}
// The folders it checks are listed in package.json's check:cycles (the web app joins once its cycles are gone).
await step('import cycles (dependency-cruiser)', 'npm', ['run', '--silent', 'check:cycles']);
await step('unit and API tests (vitest)', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile=${vitestReport}`,
]);
console.log('\n▶ build web app');
const build = await ensureWebBuilt();
steps.push({ name: 'build web app', ...build });
console.log('\n▶ build server');
const serverBuild = await ensureServerBuilt();
steps.push({ name: 'build server', ...serverBuild });
if (build.code === 0 && serverBuild.code === 0) {
  await step('end-to-end tests (playwright, chromium)', bin('playwright'), ['test'], {
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport },
  });
}

const vitest = readJson(vitestReport);
const playwright = readJson(playwrightReport);
const counts = { passed: 0, failed: 0, skipped: 0 };
if (vitest) {
  counts.passed += vitest.numPassedTests;
  counts.failed += vitest.numFailedTests;
  counts.skipped += vitest.numPendingTests + vitest.numTodoTests;
}
if (playwright) {
  counts.passed += playwright.stats.expected + playwright.stats.flaky;
  counts.failed += playwright.stats.unexpected;
  counts.skipped += playwright.stats.skipped;
}

console.log('\n──────── summary ────────');
for (const { name, code, ms } of steps) {
  console.log(`${code === 0 ? 'ok  ' : 'FAIL'}  ${name.padEnd(42)} ${(ms / 1000).toFixed(1)} s`);
}
if (vitest) console.log(`vitest: ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed`);
if (playwright) {
  const { expected, unexpected, flaky, skipped } = playwright.stats;
  console.log(`playwright: ${expected} passed, ${unexpected} failed, ${flaky} flaky, ${skipped} skipped`);
}
const pg = readJson(postgresStatus);
if (pg?.ran) console.log(`PostgreSQL: API and repository tests ran against PostgreSQL too (${pg.detail})`);
else console.log(`!!! PostgreSQL half did NOT run: ${pg?.detail ?? 'no status was reported'} !!!`);
const failures = [...vitestFailures(vitest), ...playwrightFailures(playwright)];
if (failures.length > 0) {
  console.log(`failed tests (${failures.length}):`);
  printFailures(failures, '  ');
}
console.log(`wall time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
const failedSteps = steps.filter((s) => s.code !== 0);
if (failedSteps.length > 0 && counts.failed === 0) counts.failed = failedSteps.length;
console.log(
  `tests: ${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`,
);
process.exit(failedSteps.length > 0 ? 1 : 0);
