/** A real S3-compatible server for tests: s3rver in a child process, in a temp dir, on a free loopback port. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../scripts/free-port.mjs';

export interface TestS3Server {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The environment of a server (or the import CLI) that stores its blobs in this bucket. */
  env: Record<string, string>;
  /** Stops the server and removes its files. */
  stop(): Promise<void>;
}

/** s3rver's built-in account: it checks every request's signature against these. */
const S3RVER_KEY = 'S3RVER';
const BUCKET = 'tonearm-test';
const REGION = 'us-east-1';
const SCRIPT = fileURLToPath(new URL('./s3rver-process.mjs', import.meta.url));
const START_TIMEOUT_MS = 15_000;

/** Starts s3rver with one empty bucket. */
export async function startS3Server(): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), 'tonearm-s3-'));
  const port = await freePort();
  let child: ChildProcess | null = null;
  try {
    child = spawn(process.execPath, ['--openssl-legacy-provider', SCRIPT, String(port), directory, BUCKET], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await whenReady(child);
  } catch (error) {
    await stopProcess(child);
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  const running = child;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    region: REGION,
    bucket: BUCKET,
    accessKeyId: S3RVER_KEY,
    secretAccessKey: S3RVER_KEY,
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: REGION,
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY_ID: S3RVER_KEY,
      S3_SECRET_ACCESS_KEY: S3RVER_KEY,
      S3_FORCE_PATH_STYLE: '1',
    },
    async stop() {
      try {
        await stopProcess(running);
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    },
  };
}

/** Resolves on the child's "ready" line; rejects if it exits or stays silent first. */
function whenReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`s3rver did not start within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      if (!chunk.includes('ready')) return;
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited with code ${String(code)} before it was ready`));
    });
  });
}

async function stopProcess(child: ChildProcess | null): Promise<void> {
  if (child === null) return;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
