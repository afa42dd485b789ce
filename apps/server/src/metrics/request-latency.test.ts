import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestLatency } from './request-latency.js';

const BOUNDS = [0.001, 0.01, 0.1, 1];

describe('RequestLatency', () => {
  it('prints exactly what prom-client’s own histogram prints for the same requests', async () => {
    const ours = new Registry();
    const latency = new RequestLatency('t_seconds', 'Request time.', BOUNDS);
    latency.registerIn(ours);
    const theirs = new Registry();
    const histogram = new Histogram({
      name: 't_seconds',
      help: 'Request time.',
      labelNames: ['route', 'method', 'status_code'],
      buckets: BOUNDS,
      registers: [theirs],
    });
    // On a bound (le is inclusive), between, past the last bound, and a label prom-client must escape.
    const requests: [string, string, number, number][] = [
      ['/api/songs/:id', 'GET', 200, 0.001],
      ['/api/songs/:id', 'GET', 200, 0.0005],
      ['/api/songs/:id', 'GET', 404, 0.05],
      ['/healthz', 'HEAD', 200, 2.5],
      ['/a"b\\c', 'GET', 500, 1],
    ];
    for (const [route, method, status, seconds] of requests) {
      latency.record(route, method, status, seconds);
      histogram.observe({ route, method, status_code: String(status) }, seconds);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('prints no samples before the first request, and none after a reset', async () => {
    const registry = new Registry();
    const latency = new RequestLatency('t_seconds', 'Request time.', BOUNDS);
    latency.registerIn(registry);
    expect(await registry.metrics()).toBe('# HELP t_seconds Request time.\n# TYPE t_seconds histogram\n');
    latency.record('/x', 'GET', 200, 0.2);
    registry.resetMetrics();
    expect(await registry.metrics()).toBe('# HELP t_seconds Request time.\n# TYPE t_seconds histogram\n');
  });
});
