/**
 * A set of field paths (structured-merge-diff `fieldpath/set.go`): a trie whose nodes hold the
 * members (paths ending here) and children (paths going deeper), both sorted by upstream's
 * element order. Values are immutable: every operation returns a new set.
 *
 * - `union`, `intersection`, `difference` as upstream: `difference` removes exact members and
 *   recurses into children; `recursiveDifference` also drops every path under a removed member.
 * - `paths()` iterates as upstream's `Iterate`: a node's members, then its children's paths.
 * - `leaves()` drops members that also have children; `withPrefix(pe)` is the subtree under pe.
 */
import { comparePathElements, type Path, type PathElement } from './path.js';

interface Child {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

function search<T>(
  list: readonly T[],
  pe: PathElement,
  elementOf: (t: T) => PathElement,
): { index: number; found: boolean } {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const c = comparePathElements(elementOf(list[mid]), pe);
    if (c === 0) return { index: mid, found: true };
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return { index: lo, found: false };
}

const self = (pe: PathElement) => pe;
const childPe = (c: Child) => c.pe;

/** An immutable set of paths. */
export class FieldSet {
  static readonly EMPTY = new FieldSet([], []);

  private constructor(
    /** Elements of paths that end at this node, sorted. */
    readonly members: readonly PathElement[],
    /** Subtrees of longer paths, sorted by element; never empty sets. */
    private readonly children: readonly Child[],
  ) {}

  /** The set of the given paths (empty paths are ignored, as upstream). */
  static of(...paths: readonly Path[]): FieldSet {
    const root = new Builder();
    for (const p of paths) root.insert(p, 0);
    return root.build();
  }

  /** Build a node from raw parts (used by decoders); members and children need not be sorted. */
  static fromParts(members: readonly PathElement[], children: readonly { pe: PathElement; set: FieldSet }[]): FieldSet {
    const m = [...members]
      .sort(comparePathElements)
      .filter((pe, i, a) => i === 0 || comparePathElements(a[i - 1], pe) !== 0);
    const c = children.filter((x) => !x.set.empty()).sort((a, b) => comparePathElements(a.pe, b.pe));
    const merged: Child[] = [];
    for (const x of c) {
      const last = merged[merged.length - 1];
      if (last && comparePathElements(last.pe, x.pe) === 0)
        merged[merged.length - 1] = { pe: x.pe, set: last.set.union(x.set) };
      else merged.push(x);
    }
    return new FieldSet(m, merged);
  }

  /** The children of this node: `[element, subtree]` pairs in order. */
  childEntries(): readonly Child[] {
    return this.children;
  }

  /** True when the set holds no path. */
  empty(): boolean {
    return this.members.length === 0 && this.children.length === 0;
  }

  /** Number of paths in the set. */
  size(): number {
    return this.members.length + this.children.reduce((n, c) => n + c.set.size(), 0);
  }

  /** True if the exact path is in the set. */
  has(path: Path): boolean {
    if (path.length === 0) return false;
    // A walk down the tree starts at this set.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) {
      const next = node.child(path[i]);
      if (!next) return false;
      node = next;
    }
    return search(node.members, path[path.length - 1], self).found;
  }

  /** True if `pe` is a member of this node. */
  hasMember(pe: PathElement): boolean {
    return search(this.members, pe, self).found;
  }

  /** The subtree under `pe`, or undefined. */
  child(pe: PathElement): FieldSet | undefined {
    const { index, found } = search(this.children, pe, childPe);
    return found ? this.children[index].set : undefined;
  }

  /** The subtree under `pe` (empty when absent), upstream `WithPrefix`. */
  withPrefix(pe: PathElement): FieldSet {
    return this.child(pe) ?? FieldSet.EMPTY;
  }

  /** A set with `path` added. */
  insert(path: Path): FieldSet {
    return this.union(FieldSet.of(path));
  }

  union(other: FieldSet): FieldSet {
    if (other.empty()) return this;
    if (this.empty()) return other;
    const members = zip(
      this.members,
      other.members,
      self,
      (a) => a,
      (b) => b,
      (a) => a,
    );
    const children = zip(
      this.children,
      other.children,
      childPe,
      (a) => a,
      (b) => b,
      (a, b) => ({ pe: a.pe, set: a.set.union(b.set) }),
    );
    return new FieldSet(members, children);
  }

  intersection(other: FieldSet): FieldSet {
    const members = zip(
      this.members,
      other.members,
      self,
      () => undefined,
      () => undefined,
      (a) => a,
    );
    const children = zip(
      this.children,
      other.children,
      childPe,
      () => undefined,
      () => undefined,
      (a, b) => nonEmpty(a.pe, a.set.intersection(b.set)),
    );
    return new FieldSet(members, children);
  }

  difference(other: FieldSet): FieldSet {
    if (other.empty()) return this;
    const members = zip(
      this.members,
      other.members,
      self,
      (a) => a,
      () => undefined,
      () => undefined,
    );
    const children = zip(
      this.children,
      other.children,
      childPe,
      (a) => a,
      () => undefined,
      (a, b) => nonEmpty(a.pe, a.set.difference(b.set)),
    );
    return new FieldSet(members, children);
  }

  /** Like difference, and a member of `other` also removes every path below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    if (other.empty()) return this;
    const members = zip(
      this.members,
      other.members,
      self,
      (a) => a,
      () => undefined,
      () => undefined,
    );
    const children: Child[] = [];
    for (const c of this.children) {
      if (other.hasMember(c.pe)) continue;
      const o = other.child(c.pe);
      const rest = o ? nonEmpty(c.pe, c.set.recursiveDifference(o)) : c;
      if (rest) children.push(rest);
    }
    return new FieldSet(members, children);
  }

  equals(other: FieldSet): boolean {
    if (this === other) return true;
    if (this.members.length !== other.members.length || this.children.length !== other.children.length) return false;
    for (let i = 0; i < this.members.length; i++)
      if (comparePathElements(this.members[i], other.members[i]) !== 0) return false;
    for (let i = 0; i < this.children.length; i++) {
      const a = this.children[i];
      const b = other.children[i];
      if (comparePathElements(a.pe, b.pe) !== 0 || !a.set.equals(b.set)) return false;
    }
    return true;
  }

  /** Members that are not also the prefix of a longer path (upstream `Leaves`). */
  leaves(): FieldSet {
    const members = this.members.filter((pe) => !search(this.children, pe, childPe).found);
    const children = this.children
      .map((c) => nonEmpty(c.pe, c.set.leaves()))
      .filter((c): c is Child => c !== undefined);
    return new FieldSet(members, children);
  }

  /** Every path, in upstream's iteration order. */
  *paths(prefix: Path = []): Generator<Path> {
    for (const pe of this.members) yield [...prefix, pe];
    for (const c of this.children) yield* c.set.paths([...prefix, c.pe]);
  }
}

function nonEmpty(pe: PathElement, set: FieldSet): Child | undefined {
  return set.empty() ? undefined : { pe, set };
}

/** Merge two sorted lists, deciding per element: only in a, only in b, or in both. */
function zip<T, R>(
  a: readonly T[],
  b: readonly T[],
  pe: (t: T) => PathElement,
  onlyA: (x: T) => R | undefined,
  onlyB: (y: T) => R | undefined,
  both: (x: T, y: T) => R | undefined,
): R[] {
  const out: R[] = [];
  const push = (r: R | undefined) => {
    if (r !== undefined) out.push(r);
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = comparePathElements(pe(a[i]), pe(b[j]));
    if (c < 0) push(onlyA(a[i++]));
    else if (c > 0) push(onlyB(b[j++]));
    else push(both(a[i++], b[j++]));
  }
  while (i < a.length) push(onlyA(a[i++]));
  while (j < b.length) push(onlyB(b[j++]));
  return out;
}

/** A mutable node used to build sets from many paths at once. */
class Builder {
  private readonly members: PathElement[] = [];
  private readonly children: { pe: PathElement; node: Builder }[] = [];

  insert(path: Path, at: number): void {
    if (path.length === 0) return;
    const pe = path[at];
    if (at === path.length - 1) {
      const { index, found } = search(this.members, pe, self);
      if (!found) this.members.splice(index, 0, pe);
      return;
    }
    const { index, found } = search(this.children, pe, (c) => c.pe);
    if (!found) this.children.splice(index, 0, { pe, node: new Builder() });
    this.children[index].node.insert(path, at + 1);
  }

  build(): FieldSet {
    return FieldSet.fromParts(
      this.members,
      this.children.map((c) => ({ pe: c.pe, set: c.node.build() })),
    );
  }
}
