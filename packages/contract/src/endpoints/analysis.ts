import { endpoint } from './define.js';

/** The background audio analysis of issue 28 (administrators). */
export const analysis = {
  progress: endpoint({
    method: 'GET',
    path: '/api/analysis',
    access: 'admin',
    description:
      'How far the audio analysis has gone: songs analysed, failed and waiting for the current version, the rate of the instance that answered, and the latest failures.',
    responses: { 200: 'AnalysisProgress' },
  }),
} as const;
