// `npx tsx apps/server/src/cli/make-import-corpus.ts <folder> [count] [seconds]`: writes a tagged test corpus for
// `npm run import` (e.g. to measure the import rate).
import path from 'node:path';
import { writeImportCorpus } from './import-corpus.js';

const [folder, count = '200', seconds = '5'] = process.argv.slice(2);
if (folder === undefined) {
  console.error('Usage: tsx apps/server/src/cli/make-import-corpus.ts <folder> [count] [seconds]');
  process.exit(2);
}
const files = await writeImportCorpus(path.resolve(folder), Number(count), { seconds: Number(seconds) });
console.log(`Wrote ${files.length} tagged WAV files to ${path.resolve(folder)}`);
