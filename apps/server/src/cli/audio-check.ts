/**
 * The import's end-of-audio check is the upload's (media/audio-check.ts), so a file the import refuses is
 * refused by the upload too, with the same reason: one check for both.
 */
export { AudioEndCheck, findFfmpeg, TRUNCATED } from '../media/audio-check.js';
