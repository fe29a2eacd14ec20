/**
 * The authentication matrix: every route the resource table serves (collections, objects,
 * subresources; every verb of each, and the watch form), discovery, OpenAPI, metrics and the
 * OIDC documents answer 401 Unauthorized (upstream's Status) to a request without credentials,
 * and to a wrong token; only the health and version paths are public.
 */
import { describe, expect, it } from 'vitest';
import { RESOURCE_TABLE } from '../../src/resources/table.js';
import type { ResourceDefinition, Verb } from '../../src/registry/types.js';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();

const METHODS: Record<Verb, string[]> = {
  get: ['GET'],
  list: ['GET'],
  watch: ['GET'],
  create: ['POST'],
  update: ['PUT'],
  patch: ['PATCH'],
  delete: ['DELETE'],
  deletecollection: ['DELETE'],
};

/** Every (method, path) a definition serves. */
function routes(def: ResourceDefinition): [string, string][] {
  const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
  const collection = def.namespaced ? `${base}/namespaces/default/${def.plural}` : `${base}/${def.plural}`;
  const out: [string, string][] = [];
  for (const verb of def.verbs) {
    const path = verb === 'list' || verb === 'create' || verb === 'deletecollection' ? collection : `${collection}/x`;
    for (const method of METHODS[verb]) out.push([method, verb === 'watch' ? `${collection}?watch=true` : path]);
  }
  for (const sub of def.subresources)
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) out.push([method, `${collection}/x/${sub.name}`]);
  return out;
}

const OTHER = [
  '/api',
  '/api/v1',
  '/apis',
  '/apis/rbac.authorization.k8s.io/v1',
  '/openapi/v2',
  '/openapi/v3',
  '/metrics',
  '/.well-known/openid-configuration',
  '/openid/v1/jwks',
  '/logs',
  '/nothing-here',
];

describe('authentication matrix', () => {
  it('answers 401 to every route without credentials and with a wrong token', async () => {
    const all: [string, string][] = [
      ...RESOURCE_TABLE.flatMap(routes),
      ...OTHER.map((p): [string, string] => ['GET', p]),
    ];
    expect(all.length).toBeGreaterThan(300);
    const wrong: string[] = [];
    for (const [method, path] of all) {
      for (const authorization of ['', 'Bearer not-a-token', 'Bearer eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJ4In0.c2ln']) {
        const res = await srv.api(method, path, method === 'GET' || method === 'DELETE' ? undefined : {}, {
          authorization,
        });
        if (res.status !== 401 || res.body?.reason !== 'Unauthorized')
          wrong.push(`${method} ${path} [${authorization || 'none'}] -> ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('serves health and version without credentials', async () => {
    for (const path of ['/healthz', '/livez', '/readyz', '/version'])
      expect((await srv.api('GET', path, undefined, { authorization: '' })).status, path).toBe(200);
  });
});
