/** The Prometheus text exposition read back into samples, so tests compare numbers rather than guess substrings. */
import { expect } from 'vitest';
import type { App } from '../src/http/app-types.js';

export interface Sample {
  name: string;
  labels: Readonly<Record<string, string>>;
  value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL_PAIR = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/g;

function unescape(value: string): string {
  return value.replace(/\\(["\\n])/g, (_match, char: string) => (char === 'n' ? '\n' : char));
}

/** Every sample line of `text` (comments and blank lines skipped); throws on a line that is neither. */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE_LINE.exec(line);
    if (match === null) throw new Error(`not a sample line: ${line}`);
    const [, name = '', labelText = '', value = ''] = match;
    const labels: Record<string, string> = {};
    for (const [, key = '', raw = ''] of labelText.matchAll(LABEL_PAIR)) labels[key] = unescape(raw);
    samples.push({ name, labels, value: value === '+Inf' ? Infinity : Number(value) });
  }
  return samples;
}

/** The samples called `name` whose labels include `labels`. */
export function samplesOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
}

/** The one sample called `name` with exactly these labels' values (others may be there); throws when not one. */
export function valueOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samplesOf(samples, name, labels);
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value ?? NaN;
}

/** GET /metrics through app.inject (as a scraper: `authorization` when given), asserting a 200, parsed. */
export async function scrape(app: App, authorization?: string): Promise<Sample[]> {
  const response = await app.inject({
    url: '/metrics',
    ...(authorization === undefined ? {} : { headers: { authorization } }),
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(response.body);
}
