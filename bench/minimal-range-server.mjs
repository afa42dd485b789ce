// The Node ceiling for bench:stream: node:http + fs.createReadStream with single-range support, nothing else.
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const [dir, port] = process.argv.slice(2);
const types = { '.wav': 'audio/wav', '.img': 'image/webp' };

createServer((request, response) => {
  const name = request.url === '/audio.wav' ? 'audio.wav' : request.url === '/cover.img' ? 'cover.img' : null;
  if (!name) {
    response.writeHead(404).end();
    return;
  }
  const path = join(dir, name);
  const { size } = statSync(path);
  const type = types[name.slice(name.lastIndexOf('.'))];
  const match = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
  if (match && (match[1] || match[2])) {
    const start = match[1] ? Number(match[1]) : size - Number(match[2]);
    const end = match[1] && match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
    response.writeHead(206, {
      'content-type': type,
      'content-length': end - start + 1,
      'content-range': `bytes ${start}-${end}/${size}`,
      'accept-ranges': 'bytes',
    });
    createReadStream(path, { start, end }).pipe(response);
    return;
  }
  response.writeHead(200, { 'content-type': type, 'content-length': size, 'accept-ranges': 'bytes' });
  createReadStream(path).pipe(response);
}).listen(Number(port), '127.0.0.1');
