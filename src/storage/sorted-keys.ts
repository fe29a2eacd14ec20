/**
 * A sorted set of string keys with binary-search insert, delete and range scans, so range reads
 * over tens of thousands of keys do not sort on every call. Keys compare by UTF-16 code units,
 * which for the ASCII keys used here is etcd's byte order.
 */
export class SortedKeys {
  private readonly keys: string[] = [];

  get size(): number {
    return this.keys.length;
  }

  /** Insert `key` if absent. O(log n) search plus the array shift. */
  insert(key: string): void {
    const i = this.lowerBound(key);
    if (this.keys[i] !== key) this.keys.splice(i, 0, key);
  }

  /** Remove every key. */
  clear(): void {
    this.keys.length = 0;
  }

  delete(key: string): void {
    const i = this.lowerBound(key);
    if (this.keys[i] === key) this.keys.splice(i, 1);
  }

  /** Keys in [start, end), in order. */
  range(start: string, end: string): string[] {
    const from = this.lowerBound(start);
    const to = end === '\0' ? this.keys.length : this.lowerBound(end);
    return this.keys.slice(from, Math.max(from, to));
  }

  private lowerBound(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
