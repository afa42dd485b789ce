// The Node floor for bench:node-floor: node:http answering a fixed JSON body of BYTES bytes after WORK_MS of
// synchronous work per request (what a handler's own code costs), nothing else.
import { createServer } from 'node:http';

const [port, workMs, bytes] = process.argv.slice(2).map(Number);
const body = JSON.stringify({ items: 'x'.repeat(Math.max(0, bytes - 13)) });

createServer((request, response) => {
  const started = performance.now();
  while (performance.now() - started < workMs) {
    // The handler's work: holds the event loop as a real one does.
  }
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}).listen(port, '127.0.0.1');
