/**
 * The import's end-of-audio check is the upload's (modules/media/audio-check.ts), so a file the import refuses is
 * refused by the upload too, with the same reason: one check for both.
 */
export { AudioEndCheck, findFfmpeg, TRUNCATED } from '../modules/media/audio-check.js';
