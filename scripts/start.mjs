// `npm start`: builds the web app when it is missing or stale, then runs the server (PORT, HOST, DATA_DIR honoured).
import { spawn } from 'node:child_process';
import { bin, ensureWebBuilt, root } from './lib.mjs';

const build = await ensureWebBuilt();
if (build.code !== 0) {
  console.error('The web app did not build; see the messages above.');
  process.exit(build.code);
}

const server = spawn(bin('tsx'), ['apps/server/src/main.ts'], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
