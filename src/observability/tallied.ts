/**
 * Prometheus histograms and counters for observations made far more often than the metrics are
 * scraped (every request, every event written to every watcher): a label set is looked up by
 * one string key, and an observation is then two additions and a bucket search over plain
 * numbers; the exposition is built only when the registry is read. prom-client's own Histogram
 * validates and hashes the labels and turns each bucket bound into a property name on every
 * observation, which cost a tenth of the server's time when one change reached 1,000 watchers.
 *
 * Registered on a prom-client Registry as metric objects (`get()` gives prom-client's metric
 * shape), so they are exposed and reset like the others, with the same text. A histogram's
 * optional counter view exposes the observation count alone under another name (upstream's
 * apiserver_watch_events_total beside apiserver_watch_events_sizes).
 */
import type { Registry } from 'prom-client';

interface Tally {
  readonly labels: Record<string, string>;
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative); the last slot is +Inf. */
  readonly buckets: Float64Array;
  /** A histogram's shared recorder, made on first use. */
  record: ((value: number) => void) | undefined;
  /** A counter's shared incrementer, made on first use. */
  add: ((value?: number) => void) | undefined;
}

/**
 * One string naming the values of `names` in `labels` (a missing one counts as ''): each value
 * prefixed by its length, so the key is unambiguous whatever the values hold, with no escaping.
 */
export function labelKey(names: readonly string[], labels: Readonly<Record<string, string>>): string {
  let key = '';
  for (let i = 0; i < names.length; i++) {
    const value = labels[names[i]] ?? '';
    key += `${value.length}:${value}`;
  }
  return key;
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

/** Name, help, label names and the registries of a tallied metric. */
export interface TalliedOptions {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  readonly registers: readonly Registry[];
}

export interface TalliedHistogramOptions extends TalliedOptions {
  /** Upper bounds, ascending. */
  readonly buckets: readonly number[];
  /** Also expose the observation count as a counter with this name and help. */
  readonly counter?: { readonly name: string; readonly help: string };
}

/** The tallies of one metric by label set, and its registry views. */
abstract class Tallied {
  protected readonly tallies = new Map<string, Tally>();

  /** `slots`: the bucket slots each tally holds (none for a counter). */
  constructor(
    protected readonly opts: TalliedOptions,
    private readonly slots: number,
  ) {}

  /** Forget every observation (the registry's resetMetrics). */
  reset(): void {
    for (const t of this.tallies.values()) {
      t.count = 0;
      t.sum = 0;
      t.buckets.fill(0);
    }
  }

  /** The tally of `labels`, made on first use. Labels missing from `labels` are '', unknown ones ignored. */
  protected tally(labels: Readonly<Record<string, string>>): Tally {
    const names = this.opts.labelNames;
    const key = labelKey(names, labels);
    let tally = this.tallies.get(key);
    if (!tally) {
      const picked = Object.fromEntries(names.map((n) => [n, labels[n] ?? '']));
      tally = {
        labels: picked,
        count: 0,
        sum: 0,
        buckets: new Float64Array(this.slots),
        record: undefined,
        add: undefined,
      };
      this.tallies.set(key, tally);
    }
    return tally;
  }

  /** Register, on every registry, a view named `name` whose samples `values` gives. */
  protected register(name: string, help: string, type: MetricShape['type'], values: () => MetricShape['values']): void {
    const view = {
      name,
      help,
      reset: () => this.reset(),
      get: async (): Promise<MetricShape> => ({ name, help, type, aggregator: 'sum', values: values() }),
    };
    for (const registry of this.opts.registers) registry.registerMetric(view as never);
  }

  /** One sample per label set: its count. */
  protected counts(): MetricShape['values'] {
    return [...this.tallies.values()].map((t) => ({ labels: t.labels, value: t.count }));
  }
}

/** A Prometheus histogram (see the file's comment). */
export class TalliedHistogram extends Tallied {
  private readonly bounds: readonly number[];

  constructor(opts: TalliedHistogramOptions) {
    super(opts, opts.buckets.length + 1);
    this.bounds = opts.buckets;
    this.register(opts.name, opts.help, 'histogram', () => this.histogram(opts.name));
    if (opts.counter) this.register(opts.counter.name, opts.counter.help, 'counter', () => this.counts());
  }

  /**
   * A recorder for one label set: call it with each observed value. Labels missing from
   * `labels` are exposed as ''; unknown ones are ignored.
   */
  recorder(labels: Readonly<Record<string, string>>): (value: number) => void {
    const tally = this.tally(labels);
    // One recorder per label set, shared by every caller (a watch asks for one when it opens).
    return (tally.record ??= recordInto(tally, this.bounds));
  }

  /** Observe `value` under `labels` (prom-client's Histogram.observe). */
  observe(labels: Readonly<Record<string, string>>, value: number): void {
    this.recorder(labels)(value);
  }

  private histogram(name: string): MetricShape['values'] {
    const values: MetricShape['values'] = [];
    for (const t of this.tallies.values()) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += t.buckets[i];
        values.push({ labels: { le, ...t.labels }, value: cumulative, metricName: `${name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...t.labels }, value: t.count, metricName: `${name}_bucket` });
      values.push({ labels: t.labels, value: t.sum, metricName: `${name}_sum` });
      values.push({ labels: t.labels, value: t.count, metricName: `${name}_count` });
    }
    return values;
  }
}

/** A Prometheus counter (see the file's comment). */
export class TalliedCounter extends Tallied {
  constructor(opts: TalliedOptions) {
    super(opts, 0);
    this.register(opts.name, opts.help, 'counter', () => this.counts());
  }

  /** Add `value` (default 1) under `labels` (prom-client's Counter.inc). Throws RangeError for a negative value. */
  inc(labels: Readonly<Record<string, string>>, value = 1): void {
    this.adder(labels)(value);
  }

  /**
   * An incrementer for one label set: call it with each amount (default 1; a negative one
   * throws RangeError). Labels missing from `labels` are exposed as ''; unknown ones are ignored.
   */
  adder(labels: Readonly<Record<string, string>>): (value?: number) => void {
    const tally = this.tally(labels);
    const name = this.opts.name;
    return (tally.add ??= (value = 1) => {
      if (!(value >= 0)) throw new RangeError(`counter ${name} can only increase, not by ${value}`);
      tally.count += value;
    });
  }
}
