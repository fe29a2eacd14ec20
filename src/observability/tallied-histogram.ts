/**
 * A Prometheus histogram for observations made far more often than the metrics are scraped
 * (every event written to every watcher): each label set is looked up once, when its
 * recorder is made, and an observation is then two additions and a bucket search over plain
 * numbers; the exposition is built only when the registry is read. prom-client's own
 * Histogram hashes the label values on every observation, which cost a tenth of the server's
 * time when one change reached 1,000 watchers.
 *
 * Registered on a prom-client Registry as a metric object (`get()` gives prom-client's
 * metric shape), so it is exposed and reset like the others; an optional counter view exposes
 * the observation count alone under another name (upstream's apiserver_watch_events_total
 * beside apiserver_watch_events_sizes).
 */
import type { Registry } from 'prom-client';

interface Tally {
  readonly labels: Record<string, string>;
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative); the last slot is +Inf. */
  readonly buckets: Float64Array;
  record: ((value: number) => void) | undefined;
}

/** The recorder of one tally (made apart, so that it holds only the tally and the bounds). */
function recordInto(t: Tally, bounds: readonly number[]): (value: number) => void {
  return (value) => {
    t.count++;
    t.sum += value;
    let i = 0;
    while (i < bounds.length && value > bounds[i]) i++;
    t.buckets[i]++;
  };
}

/** What prom-client's Registry reads from a metric. */
interface MetricShape {
  name: string;
  help: string;
  type: 'histogram' | 'counter';
  values: { labels: Record<string, string | number>; value: number; metricName?: string }[];
  aggregator: 'sum';
}

export interface TalliedHistogramOptions {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  /** Upper bounds, ascending. */
  readonly buckets: readonly number[];
  /** Also expose the observation count as a counter with this name and help. */
  readonly counter?: { readonly name: string; readonly help: string };
  readonly registers: readonly Registry[];
}

export class TalliedHistogram {
  private readonly tallies = new Map<string, Tally>();

  constructor(private readonly opts: TalliedHistogramOptions) {
    for (const registry of opts.registers) {
      registry.registerMetric(this.view(opts.name, opts.help, 'histogram') as never);
      if (opts.counter) registry.registerMetric(this.view(opts.counter.name, opts.counter.help, 'counter') as never);
    }
  }

  /**
   * A recorder for one label set: call it with each observed value. Labels missing from
   * `labels` are exposed as ''; unknown ones are ignored.
   */
  recorder(labels: Record<string, string>): (value: number) => void {
    const key = JSON.stringify(this.opts.labelNames.map((n) => labels[n] ?? ''));
    let tally = this.tallies.get(key);
    if (!tally) {
      const picked = Object.fromEntries(this.opts.labelNames.map((n) => [n, labels[n] ?? '']));
      tally = { labels: picked, count: 0, sum: 0, buckets: new Float64Array(this.opts.buckets.length + 1), record: undefined };
      this.tallies.set(key, tally);
    }
    // One recorder per label set, shared by every caller (a watch asks for one when it opens).
    return (tally.record ??= recordInto(tally, this.opts.buckets));
  }

  /** Forget every observation (the registry's resetMetrics). */
  reset(): void {
    for (const t of this.tallies.values()) {
      t.count = 0;
      t.sum = 0;
      t.buckets.fill(0);
    }
  }

  private view(name: string, help: string, type: MetricShape['type']) {
    return {
      name,
      help,
      reset: () => this.reset(),
      get: async (): Promise<MetricShape> => ({ name, help, type, aggregator: 'sum', values: type === 'counter' ? this.counts() : this.histogram(name) }),
    };
  }

  private counts(): MetricShape['values'] {
    return [...this.tallies.values()].map((t) => ({ labels: t.labels, value: t.count }));
  }

  private histogram(name: string): MetricShape['values'] {
    const values: MetricShape['values'] = [];
    for (const t of this.tallies.values()) {
      let cumulative = 0;
      this.opts.buckets.forEach((le, i) => {
        cumulative += t.buckets[i];
        values.push({ labels: { ...t.labels, le }, value: cumulative, metricName: `${name}_bucket` });
      });
      values.push({ labels: { ...t.labels, le: '+Inf' }, value: t.count, metricName: `${name}_bucket` });
      values.push({ labels: t.labels, value: t.sum, metricName: `${name}_sum` });
      values.push({ labels: t.labels, value: t.count, metricName: `${name}_count` });
    }
    return values;
  }
}
