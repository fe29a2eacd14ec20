/**
 * Recognising requests for a converted representation in Accept: a media range carrying
 * `as=<Kind>;g=<group>;v=<version>` (upstream k8s.io/apiserver pkg/endpoints/handlers/negotiation
 * and the handlers' `as=` targets: Table, PartialObjectMetadata(List), APIGroupDiscoveryList).
 * The most preferred acceptable range decides: a plain range (no `as`) that comes first means
 * no conversion; ranges asking for targets this endpoint does not offer are skipped, so the
 * client's own fallback applies. Protobuf ranges count only for targets that offer protobuf.
 */

/** The body formats a conversion can be answered in. */
export type ConversionFormat = 'json' | 'yaml' | 'protobuf' | 'ck-protobuf';

/** One conversion an endpoint offers: the `as` kind, the groups and versions it answers, and in which formats (default JSON and YAML). */
export interface ConversionTarget {
  readonly as: string;
  readonly groups: readonly string[];
  readonly versions: readonly string[];
  readonly formats?: readonly ConversionFormat[];
}

/** The conversion a client chose, and the exact media type to answer with. */
export interface ConversionRequest {
  readonly as: string;
  readonly group: string;
  readonly version: string;
  readonly format: ConversionFormat;
  /** e.g. `application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList` */
  readonly contentType: string;
}

const PLAIN_TYPES: Readonly<Record<string, ConversionFormat>> = {
  'application/json': 'json',
  'application/yaml': 'yaml',
  'application/vnd.kubernetes.protobuf': 'protobuf',
  'application/vnd.ck.protobuf': 'ck-protobuf',
  '*/*': 'json',
  'application/*': 'json',
};

/** Media ranges in preference order (q-value, then position), with q=0 ranges dropped. */
function ranges(accept: string): { type: string; params: Record<string, string> }[] {
  return accept
    .split(',')
    .map((part, index) => {
      const [type, ...raw] = part.split(';').map((s) => s.trim());
      const params: Record<string, string> = {};
      for (const p of raw) {
        const eq = p.indexOf('=');
        if (eq > 0) params[p.slice(0, eq).trim()] = p.slice(eq + 1).trim();
      }
      const q = Number(params.q ?? 1);
      return { type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 1, index };
    })
    .filter((r) => r.type !== '' && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
}

/**
 * The conversion `accept` asks for among `targets`, or null when the client prefers the
 * plain representation (or asks for nothing these targets offer).
 */
export function conversionRequest(
  accept: string | undefined,
  targets: readonly ConversionTarget[],
): ConversionRequest | null {
  // Without an `as` parameter anywhere there is nothing to find (most requests).
  if (!accept?.includes('as')) return null;
  for (const r of ranges(accept)) {
    const format = PLAIN_TYPES[r.type];
    if (!format) continue;
    const { as, g, v } = r.params;
    if (as === undefined) return null;
    const target = targets.find(
      (t) =>
        t.as === as &&
        t.groups.includes(g) &&
        t.versions.includes(v) &&
        (t.formats ?? ['json', 'yaml']).includes(format),
    );
    if (!target) continue;
    const type = r.type.includes('*') ? 'application/json' : r.type;
    return { as, group: g, version: v, format, contentType: `${type};g=${g};v=${v};as=${as}` };
  }
  return null;
}
