/**
 * Upstream's CRD e2e fixtures and waits, for the ports of test/e2e/apimachinery/*crd*.go
 * (apiextensions-apiserver test/integration/fixtures/resources.go, 1.33): the random-name and
 * noxu definitions, the noxu instance, creation that waits until every served version is in
 * discovery (and, as CreateNewV1CustomResourceDefinition, until a watch from a write sees it),
 * and deletion that waits until discovery no longer lists it.
 */
import { randomBytes } from 'node:crypto';
import type { TestServer } from './in-process.js';
import { TEST_TOKEN } from './in-process.js';
import { openWatch } from './watch-stream.js';

export const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** A v1 CustomResourceDefinition as the fixtures build it (JSON, loosely typed). */
export interface CrdJson {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; labels?: Record<string, string> };
  spec: {
    group: string;
    scope: 'Namespaced' | 'Cluster';
    names: Record<string, unknown> & { plural: string; kind: string };
    versions: (Record<string, any> & { name: string; served: boolean; storage: boolean })[];
    conversion?: Record<string, unknown>;
  };
}

/** fixtures.AllowAllSchema: an object preserving unknown fields. */
export const allowAllSchema = () => ({
  openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
});

/** names.SimpleNameGenerator.GenerateName(base): base and five random lower-case alphanumerics. */
export function generateName(base: string): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  return base + [...randomBytes(5)].map((b) => alphabet[b % alphabet.length]).join('');
}

/** NewRandomNameV1CustomResourceDefinition: `foo<random>a` in mygroup.example.com, served at v1beta1. */
export function randomCrd(scope: 'Namespaced' | 'Cluster'): CrdJson {
  const name = generateName('foo') + 'a';
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${name}s.mygroup.example.com` },
    spec: {
      group: 'mygroup.example.com',
      scope,
      names: { plural: `${name}s`, singular: name, kind: name, listKind: `${name}List` },
      versions: [{ name: 'v1beta1', served: true, storage: true, schema: allowAllSchema() }],
    },
  };
}

/** NewRandomNameMultipleVersionCustomResourceDefinition: v1beta1 and v1 (stored), both with /status. */
export function randomMultiVersionCrd(scope: 'Namespaced' | 'Cluster'): CrdJson {
  const def = randomCrd(scope);
  const version = (name: string, storage: boolean) => ({
    name,
    served: true,
    storage,
    subresources: { status: {} },
    schema: allowAllSchema(),
  });
  def.spec.versions = [version('v1beta1', false), version('v1', true)];
  return def;
}

/** NewNoxuV1CustomResourceDefinition: the WishIHadChosenNoxu definition. */
export function noxuCrd(scope: 'Namespaced' | 'Cluster'): CrdJson {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'noxus.mygroup.example.com' },
    spec: {
      group: 'mygroup.example.com',
      scope,
      names: {
        plural: 'noxus',
        singular: 'nonenglishnoxu',
        kind: 'WishIHadChosenNoxu',
        shortNames: ['foo', 'bar', 'abc', 'def'],
        listKind: 'NoxuItemList',
        categories: ['all'],
      },
      versions: [{ name: 'v1beta1', served: true, storage: true, schema: allowAllSchema() }],
    },
  };
}

/**
 * NewNoxuInstance as JSON text: `num1` is int64's maximum, which a JavaScript number cannot
 * hold, so the body is written by hand.
 */
export function noxuInstanceJson(namespace: string, name: string): string {
  const meta = JSON.stringify({ ...(namespace ? { namespace } : {}), name });
  return (
    `{"apiVersion":"mygroup.example.com/v1beta1","kind":"WishIHadChosenNoxu","metadata":${meta},` +
    `"content":{"key":"value"},"num":{"num1":9223372036854775807,"num2":1000000}}`
  );
}

/** The collection path of `def`'s objects at `version` (in `namespace` when namespaced). */
export function resourcePath(def: CrdJson, version: string, namespace = 'default'): string {
  const ns = def.spec.scope === 'Namespaced' ? `/namespaces/${namespace}` : '';
  return `/apis/${def.spec.group}/${version}${ns}/${def.spec.names.plural}`;
}

const served = (def: CrdJson) => def.spec.versions.filter((v) => v.served).map((v) => v.name);

async function inDiscovery(srv: TestServer, def: CrdJson, version: string): Promise<boolean> {
  const res = await srv.api('GET', `/apis/${def.spec.group}/${version}`);
  return res.status === 200 && res.body.resources.some((r: any) => r.name === def.spec.names.plural);
}

/** Poll `check` every 20 ms until true; throws `what` (or what it returns then) after `timeoutMs`. */
export async function eventually(
  check: () => Promise<boolean>,
  what: string | (() => string),
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * CreateNewV1CustomResourceDefinitionWatchUnsafe (and, with `primeWatch`,
 * CreateNewV1CustomResourceDefinition): create `def` (201 expected) and wait until every served
 * version lists it in discovery; with `primeWatch`, create and delete `setup-instance` and wait
 * until a watch of each served version from the creation's resourceVersion sees the DELETED event.
 * Returns the created definition.
 */
export async function createCrd(srv: TestServer, def: CrdJson, { primeWatch = false } = {}): Promise<any> {
  const created = await srv.api('POST', CRDS, def);
  if (created.status !== 201) throw new Error(`CRD create: ${created.status} ${created.text}`);
  for (const version of served(def))
    await eventually(() => inDiscovery(srv, def, version), `${def.metadata.name} ${version} in discovery`);
  if (primeWatch && served(def).length > 0) await primeWatchCache(srv, def);
  return created.body;
}

async function primeWatchCache(srv: TestServer, def: CrdJson): Promise<void> {
  const [first, ...rest] = served(def);
  const instance = {
    apiVersion: `${def.spec.group}/${first}`,
    kind: def.spec.names.kind,
    metadata: { name: 'setup-instance' },
    alpha: 'foo_123',
    beta: 10,
    gamma: 'bar',
    delta: 'hello',
    epsilon: 'foobar',
    spec: {},
  };
  const made = await srv.api('POST', resourcePath(def, first!), instance);
  if (made.status !== 201) throw new Error(`setup-instance: ${made.status} ${made.text}`);
  await srv.api('DELETE', `${resourcePath(def, first!)}/setup-instance`);
  for (const version of [first!, ...rest]) {
    const rv = made.body.metadata.resourceVersion;
    const url = `${srv.url}${resourcePath(def, version)}?watch=true&resourceVersion=${rv}`;
    const watch = await openWatch(url, TEST_TOKEN, srv.agent);
    try {
      const [event] = await watch.next(1);
      if (event!.type !== 'DELETED') throw new Error(`expected DELETE, but got ${JSON.stringify(event)}`);
    } finally {
      watch.close();
    }
  }
}

/** DeleteV1CustomResourceDefinition: delete `def` and wait until no served version is in discovery. */
export async function deleteCrd(srv: TestServer, def: CrdJson): Promise<void> {
  const res = await srv.api('DELETE', `${CRDS}/${def.metadata.name}`);
  if (res.status !== 200) throw new Error(`CRD delete: ${res.status} ${res.text}`);
  await waitGoneFromDiscovery(srv, def);
}

/** Wait until no served version of `def` lists it in discovery. */
export async function waitGoneFromDiscovery(srv: TestServer, def: CrdJson): Promise<void> {
  for (const version of served(def))
    await eventually(async () => !(await inDiscovery(srv, def, version)), `${def.metadata.name} gone`);
}
