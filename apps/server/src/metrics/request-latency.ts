import type { Histogram, Registry } from 'prom-client';

type SeriesLabel = 'route' | 'method' | 'status_code';

/** One sample as prom-client's registry prints it: `metricName{labels} value`. */
interface ExposedValue {
  metricName: string;
  labels: Readonly<Record<string, string | number>>;
  value: number;
}

/** One route, method and status: how many requests fell in each bucket (the last past every bound), and their sum. */
interface Series {
  readonly labels: Readonly<Record<SeriesLabel, string>>;
  readonly counts: Float64Array;
  sum: number;
}

/**
 * A histogram of request durations per route pattern, method and status that records without allocating, exposed
 * through a prom-client registry. prom-client's own Histogram builds a label object, a key string and a closure on
 * every observe (about 1.2 µs each on the development machine); `record` finds its series through nested maps and
 * adds to a typed array (about 25 ns). The samples are built only when scraped, in the shape prom-client's own
 * histograms give the registry (cumulative `_bucket`s with `le`, then `_sum` and `_count`).
 */
export class RequestLatency {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Map<string, Map<number, Series>>>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  /** Adds it to `registry`, which reads it through `get` like its own metrics (prom-client types only its classes). */
  registerIn(registry: Registry): void {
    registry.registerMetric(this as unknown as Histogram);
  }

  /** One request that took `seconds`. */
  record(route: string, method: string, status: number, seconds: number): void {
    let byMethod = this.series.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.series.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let series = byStatus.get(status);
    if (series === undefined) {
      const labels = { route, method, status_code: String(status) };
      series = { labels, counts: new Float64Array(this.bounds.length + 1), sum: 0 };
      byStatus.set(status, series);
    }
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > (this.bounds[bucket] ?? Infinity)) bucket += 1;
    series.counts[bucket] = (series.counts[bucket] ?? 0) + 1;
    series.sum += seconds;
  }

  /** What the registry prints. */
  get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: ExposedValue[] }> {
    const values: ExposedValue[] = [];
    for (const series of this.allSeries()) values.push(...this.samplesOf(series));
    const { name, help, type, aggregator } = this;
    return Promise.resolve({ name, help, type, aggregator, values });
  }

  /** Forgets every series (the registry's resetMetrics). */
  reset(): void {
    this.series.clear();
  }

  private samplesOf(series: Series): ExposedValue[] {
    const bucket = `${this.name}_bucket`;
    const samples: ExposedValue[] = [];
    let cumulative = 0;
    this.bounds.forEach((bound, index) => {
      cumulative += series.counts[index] ?? 0;
      samples.push({ metricName: bucket, labels: { le: bound, ...series.labels }, value: cumulative });
    });
    const count = cumulative + (series.counts[this.bounds.length] ?? 0);
    samples.push(
      { metricName: bucket, labels: { le: '+Inf', ...series.labels }, value: count },
      { metricName: `${this.name}_sum`, labels: series.labels, value: series.sum },
      { metricName: `${this.name}_count`, labels: series.labels, value: count },
    );
    return samples;
  }

  private *allSeries(): Generator<Series> {
    for (const byMethod of this.series.values()) {
      for (const byStatus of byMethod.values()) yield* byStatus.values();
    }
  }
}
