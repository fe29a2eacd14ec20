/**
 * Recognising Table requests in Accept (`application/json;as=Table;v=v1;g=meta.k8s.io`): the
 * spec's group `meta.ck.io` and upstream's `meta.k8s.io` are both accepted, v1 and v1beta1.
 * The first acceptable range decides; a plain `application/json` before it means no Table.
 */
export interface TableRequest {
  readonly apiVersion: string;
  readonly contentType: string;
}

const GROUPS = new Set(['meta.k8s.io', 'meta.ck.io']);
const VERSIONS = new Set(['v1', 'v1beta1']);

export function tableRequest(accept: string | undefined): TableRequest | null {
  // Without an `as` parameter anywhere there is nothing to find (what clients send but kubectl).
  if (!accept?.includes('as')) return null;
  for (const part of accept.split(',')) {
    const [type, ...rawParams] = part.split(';').map((s) => s.trim());
    const params = Object.fromEntries(rawParams.map((p) => p.split('=').map((s) => s.trim())));
    if (params.q === '0') continue;
    if (type !== 'application/json' && type !== '*/*' && type !== 'application/*') continue;
    if (params.as === undefined) return null;
    if (params.as === 'Table' && GROUPS.has(params.g) && VERSIONS.has(params.v)) {
      return {
        apiVersion: `${params.g}/${params.v}`,
        contentType: `application/json;as=Table;v=${params.v};g=${params.g}`,
      };
    }
  }
  return null;
}
