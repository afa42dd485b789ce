// Runs s3rver (the test S3 server, see s3-server.ts) in a process of its own: `node --openssl-legacy-provider
// s3rver-process.mjs <port> <directory> <bucket>`. The legacy provider is for s3rver's ListObjectsV2 continuation
// tokens, which it enciphers with DES. Prints "ready" once it listens; stops on SIGTERM.
import S3rver from 's3rver';

const [port, directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(port),
  silent: true,
  directory,
  configureBuckets: [{ name: bucket }],
});
await server.run();
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
