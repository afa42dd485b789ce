import { screen, within } from '@testing-library/react';
import { AnalysisClientMessages as Texts, type AnalysisProgress } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, makeUser } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { advance, flush } from '../../test/timers.js';
import { ANALYSIS_IDLE_POLL_MS, ANALYSIS_POLL_MS } from './analysis-queries.js';
import { AnalysisStatus } from './AnalysisStatus.js';

const admin = makeUser({ id: 1, username: 'root', role: 'ADMIN' });

function progressOf(fields: Partial<AnalysisProgress>): AnalysisProgress {
  return {
    state: 'working',
    version: 1,
    songs: 200,
    analysed: 120,
    failed: 2,
    pending: 78,
    songsPerSecond: 3.4,
    recentFailures: [],
    ...fields,
  };
}

/** The value shown beside the label `label` (a dt). */
function stat(label: string): string | null | undefined {
  const term = [...document.querySelectorAll('dt')].find((dt) => dt.textContent === label);
  if (!term) throw new Error(`no “${label}” here`);
  return term.nextElementSibling?.textContent;
}

function panel(): HTMLElement {
  return screen.getByRole('region', { name: Texts.title });
}

/** The next poll, and its answer rendered (TanStack Query renders through a 0 ms timer). */
async function after(ms: number): Promise<void> {
  await advance(ms);
  await advance(1);
}

describe('the audio analysis panel', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows how far the analysis has gone, its rate and its failures, and follows it while it works', async () => {
    let answer = progressOf({
      recentFailures: [{ songId: 7, name: 'Broken tape', reason: 'Invalid data found when processing input' }],
    });
    const api = mockApi({ 'analysis.progress': () => answer });
    renderInApp(<AnalysisStatus />, { user: admin, route: '/dashboard/libraries' });
    await flush();
    const region = panel();
    expect(within(region).getByText(Texts.working)).toBeInTheDocument();
    const bar = within(region).getByRole('progressbar', { name: Texts.progressLabel });
    expect(bar.getAttribute('aria-valuenow')).toBe('122');
    expect(bar.getAttribute('aria-valuemax')).toBe('200');
    expect(within(region).getByText(Texts.progressText(122, 200))).toBeInTheDocument();
    expect(stat(Texts.analysed)).toBe('120');
    expect(stat(Texts.failed)).toBe('2');
    expect(stat(Texts.pending)).toBe('78');
    expect(stat(Texts.songsPerSecond)).toBe('3.4');
    expect(within(region).getByText('Broken tape')).toBeInTheDocument();
    expect(within(region).getByText('Invalid data found when processing input')).toBeInTheDocument();

    // While it works it is asked again every ANALYSIS_POLL_MS; once it is done, no more.
    answer = progressOf({ state: 'idle', analysed: 198, pending: 0, songsPerSecond: 0 });
    await after(ANALYSIS_POLL_MS);
    expect(stat(Texts.analysed)).toBe('198');
    expect(within(region).getByText(Texts.idle)).toBeInTheDocument();
    const asked = api.calls().length;
    await after(ANALYSIS_IDLE_POLL_MS * 3);
    expect(api.calls().length).toBe(asked);
  });

  it('says when the analysis is off, with the songs waiting, and does not poll', async () => {
    const api = mockApi({
      'analysis.progress': () => progressOf({ state: 'off', analysed: 0, failed: 0, pending: 200, songsPerSecond: 0 }),
    });
    renderInApp(<AnalysisStatus />, { user: admin, route: '/dashboard/libraries' });
    await flush();
    expect(within(panel()).getByText(Texts.off)).toBeInTheDocument();
    expect(stat(Texts.pending)).toBe('200');
    await after(ANALYSIS_IDLE_POLL_MS * 2);
    expect(api.calls()).toEqual(['GET /api/analysis']);
  });

  it('asks again now and then while songs wait and it is idle (a scan may wake it)', async () => {
    const api = mockApi({ 'analysis.progress': () => progressOf({ state: 'idle', pending: 3 }) });
    renderInApp(<AnalysisStatus />, { user: admin, route: '/dashboard/libraries' });
    await flush();
    await after(ANALYSIS_IDLE_POLL_MS);
    expect(api.calls()).toEqual(['GET /api/analysis', 'GET /api/analysis']);
  });

  it('keeps a failure to load inside the panel, without an alert', async () => {
    mockApi({ 'analysis.progress': () => errorResponse(500, 'internal', 'Down') });
    const view = renderInApp(<AnalysisStatus />, { user: admin, route: '/dashboard/libraries' });
    await flush();
    await after(5000);
    expect(within(panel()).getByText(Texts.failedToLoad)).toBeInTheDocument();
    expect(view.alertMessages()).toEqual([]);
  });
});
