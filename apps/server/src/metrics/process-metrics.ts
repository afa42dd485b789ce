import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | null = null;

/**
 * prom-client's default Node.js metrics (event-loop lag and its percentiles, CPU, memory, heap, GC, handles), made
 * once per process on first use: they describe the process, not one app, and each set starts an event-loop monitor
 * that is never stopped, so a test run building many apps must not make one per app.
 */
export function processRegistry(): Registry {
  if (registry === null) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
