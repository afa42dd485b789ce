// `npm start`: builds the web app and the server when they are missing or stale, then runs the built server with plain
// node (PORT, HOST, DATA_DIR and the rest of the environment honoured).
import { spawn } from 'node:child_process';
import { ensureServerBuilt, serverCommand } from './build-server.mjs';
import { ensureWebBuilt, root } from './lib.mjs';

for (const [what, ensureBuilt] of [
  ['web app', ensureWebBuilt],
  ['server', ensureServerBuilt],
]) {
  const build = await ensureBuilt();
  if (build.code !== 0) {
    console.error(`The ${what} did not build; see the messages above.`);
    process.exit(build.code);
  }
}

const [command, args, env] = serverCommand();
const server = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
