import { z } from 'zod';

/*
 * Issue 28's background audio analysis, as administrators see it: how far it has gone over the catalogue.
 */

/** Whether the analysis runs on the instance that answered: off (ANALYSIS=0, or no ffmpeg), working or idle. */
export const AnalysisState = z.enum(['off', 'working', 'idle']);
export type AnalysisState = z.infer<typeof AnalysisState>;

/** A song whose file could not be analysed, and why (ffmpeg's words, or "no audio"). */
export const AnalysisFailure = z.object({ songId: z.number().int(), name: z.string(), reason: z.string() });
export type AnalysisFailure = z.infer<typeof AnalysisFailure>;

/** GET /api/analysis: the analysis of the current version over the songs whose file is there. */
export const AnalysisProgress = z.object({
  state: AnalysisState,
  /** The analysis's version (the feature layout's): songs analysed by another version count as pending. */
  version: z.number().int(),
  songs: z.number().int(),
  analysed: z.number().int(),
  failed: z.number().int(),
  pending: z.number().int(),
  /** Songs analysed a second by the instance that answered, over the last minute (0 when idle). */
  songsPerSecond: z.number(),
  /** The latest failures, newest first (at most 10). */
  recentFailures: z.array(AnalysisFailure),
});
export type AnalysisProgress = z.infer<typeof AnalysisProgress>;

/** Texts of the analysis panel of the Libraries page, shared by the component and its test. */
export const AnalysisClientMessages = {
  title: 'Audio analysis',
  intro: 'Each song’s sound is measured in the background, for song radio. It runs at a low priority.',
  off: 'Off on this server (ANALYSIS=0, or ffmpeg was not found)',
  working: 'Analysing',
  idle: 'Up to date',
  analysed: 'Analysed',
  failed: 'Failed',
  pending: 'Waiting',
  songsPerSecond: 'Songs a second',
  progressLabel: 'Audio analysis progress',
  progressText: (done: number, songs: number) => `${done} of ${songs} songs`,
  failures: (count: number) => `Latest ${count === 1 ? 'failure' : 'failures'}`,
  failedToLoad: 'Failed to load the audio analysis',
} as const;
