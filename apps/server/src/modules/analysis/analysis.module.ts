import { endpoints } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import type { AnalysisService } from './analysis.service.js';

/**
 * The background audio analysis (issue 28): its progress, for administrators (the route guard checks the role). The
 * analysis itself is a job of the composition root; the vectors it writes are read through feature-layout.ts.
 */
export function registerAnalysis(app: App, { analysis }: { analysis: AnalysisService }): void {
  route(app, endpoints.analysis.progress, () => analysis.progress());
}
