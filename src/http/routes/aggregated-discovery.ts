/**
 * Aggregated discovery (KEP-3352, apidiscovery.k8s.io v2 and v2beta1; our own name
 * apidiscovery.ck.io too): `/api` and `/apis` answer, to clients that ask for
 * `as=APIGroupDiscoveryList`, one document with every group, version, resource and subresource,
 * so kubectl 1.30+ discovers in one request per root. Served with an ETag; If-None-Match answers
 * 304. Other Accepts get the classic documents. Upstream: k8s.io/apiserver
 * pkg/endpoints/discovery/aggregated.
 */
import { createHash } from 'node:crypto';
import { discoveryGroups } from '../../api/groups.js';
import { rowsOf } from './discovery.js';
import type { ResourceDefinition } from '../../registry/types.js';
import type { ApiContext } from '../context.js';
import { encodeBody } from '../negotiation/media-types.js';
import { conversionRequest, type ConversionTarget } from '../negotiation/conversion.js';

const TARGETS: readonly ConversionTarget[] = [
  { as: 'APIGroupDiscoveryList', groups: ['apidiscovery.k8s.io', 'apidiscovery.ck.io'], versions: ['v2', 'v2beta1'] },
];

interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** The resource entries of one group version, with their subresources (APIResourceDiscovery). */
function resourcesOf(defs: readonly ResourceDefinition[], group: string, version: string) {
  return rowsOf(defs, group, version).map((d) => {
    const entry: Record<string, unknown> = {
      resource: d.plural,
      responseKind: { group, version, kind: d.kind } satisfies GroupVersionKind,
      scope: d.namespaced ? 'Namespaced' : 'Cluster',
      singularResource: d.singular,
      verbs: [...d.verbs],
    };
    if (d.shortNames.length) entry.shortNames = [...d.shortNames];
    if (d.categories.length) entry.categories = [...d.categories];
    if (d.subresources.length) {
      entry.subresources = d.subresources.map((s) => {
        const [g, v] = s.apiVersion?.includes('/') ? s.apiVersion.split('/') : [group, version];
        return {
          subresource: s.name,
          responseKind: { group: g, version: v, kind: s.kind } satisfies GroupVersionKind,
          verbs: [...s.verbs],
        };
      });
    }
    return entry;
  });
}

/**
 * The APIGroupDiscoveryList of a root: `/api` holds the core group (name ''), `/apis` every
 * other group that serves something, preferred version first.
 */
export function apiGroupDiscoveryList(defs: readonly ResourceDefinition[], root: 'api' | 'apis', apiVersion: string) {
  const groups = root === 'api' ? [{ name: '', versions: ['v1'] }] : discoveryGroups(defs);
  const items = groups
    .map((g) => ({
      metadata: g.name ? { name: g.name, creationTimestamp: null } : { creationTimestamp: null },
      versions: g.versions
        .map((version) => ({ version, resources: resourcesOf(defs, g.name, version), freshness: 'Current' }))
        .filter((v) => v.resources.length > 0),
    }))
    .filter((g) => g.versions.length > 0);
  return { kind: 'APIGroupDiscoveryList', apiVersion, metadata: {}, items };
}

/** Encoded documents with their ETags, per set of served rows (replaced when rows change), root, apiVersion and format. */
const documents = new WeakMap<readonly ResourceDefinition[], Map<string, { body: string; etag: string }>>();

function encodedDocument(
  defs: readonly ResourceDefinition[],
  root: 'api' | 'apis',
  apiVersion: string,
  format: 'json' | 'yaml',
): { body: string; etag: string } {
  let byKey = documents.get(defs);
  if (!byKey) documents.set(defs, (byKey = new Map()));
  const key = `${root} ${apiVersion} ${format}`;
  let doc = byKey.get(key);
  if (!doc) {
    const body = encodeBody(apiGroupDiscoveryList(defs, root, apiVersion), format, false);
    doc = { body, etag: `"${createHash('sha256').update(body).digest('hex').toUpperCase()}"` };
    byKey.set(key, doc);
  }
  return doc;
}

/**
 * Answer `ctx` with the aggregated document of `root` when the client asked for it, and
 * return true; false leaves the request to the classic document.
 */
export function respondAggregated(ctx: ApiContext, defs: readonly ResourceDefinition[], root: 'api' | 'apis'): boolean {
  const request = conversionRequest(ctx.get('Accept'), TARGETS);
  if (!request) return false;
  const { body, etag } = encodedDocument(
    defs,
    root,
    `${request.group}/${request.version}`,
    request.format === 'yaml' ? 'yaml' : 'json',
  );
  ctx.set('ETag', etag);
  ctx.set('Vary', 'Accept');
  if (ctx.get('If-None-Match') === etag) {
    ctx.status = 304;
    return true;
  }
  ctx.status = 200;
  ctx.set('Content-Type', request.contentType);
  ctx.body = body;
  return true;
}
