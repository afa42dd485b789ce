import { endpoint } from './define.js';

/** The background audio analysis of issue 28 (administrators). */
export const analysis = {
  progress: endpoint({
    method: 'GET',
    path: '/api/analysis',
    access: 'admin',
    description: 'Songs analysed, failed and waiting, the rate, the latest failures.',
    responses: { 200: 'AnalysisProgress' },
  }),
} as const;
