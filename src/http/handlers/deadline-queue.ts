/**
 * Deadlines on one timer instead of a Node timer each: the timeouts and bookmark times of open
 * watches, which may last an hour, thousands at a time. A Node Timeout with its arguments holds
 * about 160 bytes for its whole life; here a deadline is an entry in a Set of its bucket, and
 * its holder keeps the bucket's key (a small integer).
 *
 * Deadlines are kept in buckets of `resolutionMs` on the monotonic clock, rounded up, so none
 * fires early and each fires at most `resolutionMs` late (plus the event loop's delay). One
 * unref'd timer is armed for the earliest bucket; bucket keys sit in a binary min-heap, and a
 * bucket emptied by `delete` is dropped at once while its key is skipped when it comes due.
 * Upstream's cacher keeps its bookmark watchers the same way, in per-second buckets served by
 * one timer (k8s.io/apiserver pkg/storage/cacher/cacher.go, watcherBookmarkTimeBuckets).
 */

/** Node's timers take at most 2^31-1 ms; a later bucket is reached by re-arming. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class DeadlineQueue<T> {
  private readonly buckets = new Map<number, Set<T>>();
  /** Bucket keys, a binary min-heap (may hold keys of dropped buckets, and duplicates). */
  private readonly keys: number[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** The key the timer is armed for (Infinity: not armed). */
  private armed = Infinity;

  /**
   * `fire(item)` is called once per deadline that comes due (an exception it throws is
   * dropped, so the others still fire); `now` is the clock in ms (monotonic by default).
   */
  constructor(
    private readonly fire: (item: T) => void,
    private readonly resolutionMs = 100,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Fire `item` once `delayMs` (>= 0) have passed; returns the key that {@link delete} takes. */
  add(item: T, delayMs: number): number {
    const key = Math.ceil((this.now() + delayMs) / this.resolutionMs);
    let bucket = this.buckets.get(key);
    if (!bucket) {
      this.buckets.set(key, (bucket = new Set()));
      push(this.keys, key);
    }
    bucket.add(item);
    if (key < this.armed) this.arm(key);
    return key;
  }

  /** Forget `item`'s deadline under `key` (a key {@link add} returned); no-op once it fired. */
  delete(item: T, key: number): void {
    const bucket = this.buckets.get(key);
    if (bucket?.delete(item) && bucket.size === 0) this.buckets.delete(key);
  }

  /** Deadlines waiting. */
  get size(): number {
    let n = 0;
    for (const bucket of this.buckets.values()) n += bucket.size;
    return n;
  }

  private arm(key: number): void {
    clearTimeout(this.timer);
    this.armed = key;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, key * this.resolutionMs - this.now()));
    this.timer = setTimeout(this.run, delay);
    this.timer.unref();
  }

  private readonly run = (): void => {
    this.timer = undefined;
    this.armed = Infinity;
    const due = Math.floor(this.now() / this.resolutionMs);
    while (this.keys.length > 0 && this.keys[0] <= due) {
      const key = pop(this.keys);
      const bucket = this.buckets.get(key);
      if (!bucket) continue;
      this.buckets.delete(key);
      for (const item of bucket) {
        try {
          this.fire(item);
        } catch {
          // One holder's failure is its own.
        }
      }
    }
    if (this.keys.length > 0) this.arm(this.keys[0]);
  };
}

function push(heap: number[], key: number): void {
  let i = heap.push(key) - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heap[parent] <= key) break;
    heap[i] = heap[parent];
    i = parent;
  }
  heap[i] = key;
}

function pop(heap: number[]): number {
  const top = heap[0];
  const last = heap.pop()!;
  if (heap.length === 0) return top;
  let i = 0;
  for (;;) {
    let child = 2 * i + 1;
    if (child >= heap.length) break;
    if (child + 1 < heap.length && heap[child + 1] < heap[child]) child++;
    if (heap[child] >= last) break;
    heap[i] = heap[child];
    i = child;
  }
  heap[i] = last;
  return top;
}
