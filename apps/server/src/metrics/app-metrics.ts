import { Counter, Gauge, Registry } from 'prom-client';
import type { PoolUse } from '../db/database.js';
import type { GateMeter, MediaMeters, StreamMeter, TranscodeMeter, TranscodeOutcome } from '../media/media-meters.js';
import { processRegistry } from './process-metrics.js';
import { RequestLatency } from './request-latency.js';

/** Seconds: from a small JSON answer (about a millisecond) to a whole song sent to a slow client. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Plain sums the media code adds to on every chunk; prom-client reads them only when /metrics is scraped. */
class StreamTally implements StreamMeter {
  bytes = 0;
  active = 0;

  started(): void {
    this.active += 1;
  }

  sent(bytes: number): void {
    this.bytes += bytes;
  }

  ended(): void {
    this.active -= 1;
  }
}

class TranscodeTally implements TranscodeMeter {
  readonly counts = { started: 0, finished: 0, failed: 0, cancelled: 0, refused: 0 };

  started(): void {
    this.counts.started += 1;
  }

  ended(outcome: TranscodeOutcome): void {
    this.counts[outcome] += 1;
  }

  refused(): void {
    this.counts.refused += 1;
  }

  get inProgress(): number {
    const { started, finished, failed, cancelled } = this.counts;
    return started - finished - failed - cancelled;
  }
}

class GateTally implements GateMeter {
  readonly counts = { file: 0, app: 0 };

  answered(to: 'file' | 'app'): void {
    this.counts[to] += 1;
  }
}

export interface MetricsSources {
  /** The database pool's use now (createDatabase's poolUse); null on SQLite, which has no pool. */
  poolUse: () => PoolUse | null;
}

/**
 * The metrics of one app (docs/operations.md lists them): a registry of its own, so apps built side by side (tests)
 * never share or clash, plus the process's runtime metrics (event-loop lag, memory, CPU), which are one per process.
 */
export class AppMetrics {
  readonly requests: RequestLatency;
  readonly meters: MediaMeters;
  private readonly registry = new Registry();

  constructor(sources: MetricsSources) {
    // Now rather than at the first scrape: the event-loop monitor then covers the time before it too.
    processRegistry();
    this.requests = new RequestLatency(
      'tonearm_http_request_duration_seconds',
      'Time from a request to the end of its response, per route pattern, method and status code.',
      LATENCY_BUCKETS,
    );
    this.requests.registerIn(this.registry);
    const streams = new StreamTally();
    const transcodes = new TranscodeTally();
    const gate = new GateTally();
    this.meters = { streams, transcodes, gate };
    counterOf(this.registry, 'tonearm_audio_streamed_bytes_total', 'Audio body bytes written to clients.', () => {
      return streams.bytes;
    });
    gaugeOf(this.registry, 'tonearm_audio_active_streams', 'Audio bodies being sent now.', () => streams.active);
    this.transcodeMetrics(transcodes);
    this.gateMetrics(gate);
    if (sources.poolUse() !== null) this.poolMetrics(sources.poolUse);
  }

  /** The Prometheus text exposition: the process's metrics, then the app's. */
  async text(): Promise<string> {
    const [runtime, app] = await Promise.all([processRegistry().metrics(), this.registry.metrics()]);
    return `${runtime}${app}`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private transcodeMetrics(tally: TranscodeTally): void {
    const { counts } = tally;
    const counter = (name: string, help: string, read: () => number) => {
      counterOf(this.registry, `tonearm_transcodes_${name}_total`, help, read);
    };
    counter('started', 'ffmpeg transcodes started.', () => counts.started);
    counter('finished', 'Transcodes that finished into the transcode cache.', () => counts.finished);
    counter('failed', 'Transcodes that failed (ffmpeg error or unreadable input).', () => counts.failed);
    counter('cancelled', 'Transcodes stopped because every listener left (or the app closed).', () => {
      return counts.cancelled;
    });
    counter('refused', 'Transcodes refused with 503 because TRANSCODE_CONCURRENCY were running.', () => {
      return counts.refused;
    });
    gaugeOf(this.registry, 'tonearm_transcodes_in_progress', 'ffmpeg transcodes running now.', () => {
      return tally.inProgress;
    });
  }

  /** MEDIA_OFFLOAD_GATE's answers (zero without it), by where they sent nginx. */
  private gateMetrics(tally: GateTally): void {
    new Counter({
      name: 'tonearm_offload_gate_answers_total',
      help: 'Requests the offload gate answered: to="file" handed to nginx, to="app" passed on to the HTTP server.',
      labelNames: ['to'],
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc({ to: 'file' }, tally.counts.file);
        this.inc({ to: 'app' }, tally.counts.app);
      },
    });
  }

  private poolMetrics(poolUse: () => PoolUse | null): void {
    const gauge = (name: string, help: string, read: (use: PoolUse) => number) => {
      gaugeOf(this.registry, `tonearm_db_pool_${name}`, help, () => {
        const use = poolUse();
        return use === null ? 0 : read(use);
      });
    };
    gauge('connections', 'Open PostgreSQL connections in the pool, idle or busy.', (use) => use.total);
    gauge('idle_connections', 'Open PostgreSQL connections waiting for a query.', (use) => use.idle);
    gauge('waiting_queries', 'Queries waiting for a free connection (the pool is exhausted).', (use) => use.waiting);
    gauge('max_connections', 'The most connections the pool opens.', (use) => use.max);
  }
}

/** A counter whose value is read from `read` when scraped (a running total kept elsewhere). */
function counterOf(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

/** A gauge whose value is read from `read` when scraped. */
function gaugeOf(registry: Registry, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}
