/**
 * Pruning of unknown fields, as upstream's apiextensions-apiserver
 * pkg/apiserver/schema/pruning/algorithm.go (PruneWithOptions) with the unknown-field paths of
 * schema/unknownfieldpaths.go: fields a structural schema does not specify are removed in place;
 * `x-kubernetes-preserve-unknown-fields` keeps them (pruning starts again inside nested
 * `properties` and `additionalProperties`); `apiVersion`, `kind` and `metadata` are kept on
 * `x-kubernetes-embedded-resource` objects and at the resource root.
 */
import type { Structural } from './types.js';

/** Options of {@link prune}. */
export interface PruneOptions {
  /** The object is a resource (its root apiVersion/kind/metadata are kept and not reported). */
  isResourceRoot?: boolean;
  /** Collect the pruned fields' paths (upstream TrackUnknownFieldPaths). */
  returnPruned?: boolean;
}

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/** Path building as upstream's UnknownFieldPathOptions: `a.b`, `a[0].b`, `[1].c` at a list root. */
class Paths {
  readonly found: string[] = [];
  constructor(readonly track: boolean) {}
  key(parent: string, k: string): string {
    return parent ? `${parent}.${k}` : k;
  }
  record(parent: string, k: string): void {
    if (this.track) this.found.push(this.key(parent, k));
  }
}

/**
 * Remove from `obj` (in place) every field `schema` does not specify. Returns the pruned
 * fields' paths, sorted as upstream sorts them (`spec.foo`, `spec.list[0].bar`), when
 * `returnPruned` is set, else an empty list. Upstream reports them to fieldValidation=Strict as
 * `unknown field "spec.foo"` and to Warn as warnings. Never throws.
 */
export function prune(obj: unknown, schema: Structural | undefined, opts: PruneOptions = {}): string[] {
  let s = schema;
  if (opts.isResourceRoot) {
    s = s ?? {};
    if (!s.extensions?.xEmbeddedResource) s = { ...s, extensions: { ...s.extensions, xEmbeddedResource: true } };
  }
  const paths = new Paths(Boolean(opts.returnPruned));
  pruneValue(obj, s, '', paths);
  return paths.found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function pruneValue(x: unknown, s: Structural | undefined, path: string, paths: Paths): void {
  if (s?.extensions?.xPreserveUnknownFields) {
    skipPrune(x, s, path, paths);
    return;
  }
  if (Array.isArray(x)) {
    x.forEach((v, i) => pruneValue(v, s?.items, `${path}[${i}]`, paths));
    return;
  }
  if (!isObject(x)) return;
  if (!s) {
    for (const k of Object.keys(x)) {
      paths.record(path, k);
      delete x[k];
    }
    return;
  }
  for (const k of Object.keys(x)) {
    if (s.extensions?.xEmbeddedResource && META_FIELDS.has(k)) continue;
    const prop = s.properties?.[k];
    const additional = s.generic?.additionalProperties;
    if (prop) pruneValue(x[k], prop, paths.key(path, k), paths);
    else if (additional) pruneValue(x[k], additional.structural, paths.key(path, k), paths);
    else {
      if (!META_FIELDS.has(k) || path !== '') paths.record(path, k);
      delete x[k];
    }
  }
}

function skipPrune(x: unknown, s: Structural | undefined, path: string, paths: Paths): void {
  if (!s) return;
  if (Array.isArray(x)) {
    x.forEach((v, i) => skipPrune(v, s.items, `${path}[${i}]`, paths));
    return;
  }
  if (!isObject(x)) return;
  for (const k of Object.keys(x)) {
    if (s.extensions?.xEmbeddedResource && META_FIELDS.has(k)) continue;
    const prop = s.properties?.[k];
    const additional = s.generic?.additionalProperties;
    if (prop) pruneValue(x[k], prop, paths.key(path, k), paths);
    else if (additional) pruneValue(x[k], additional.structural, paths.key(path, k), paths);
  }
}
