/**
 * The setup of upstream's crd_publish_openapi.go (1.33) for its ports: the test schemas
 * (schemaFoo, schemaWaldo, ...), test/utils/crd CreateMultiVersionTestCRD's definitions
 * (`e2e-test-crd-publish-openapi-<n>-crd` in `crd-publish-openapi-test-<suffix>.example.com`),
 * the OpenAPI definition name of a version, and the waits on `/openapi/v2`
 * (waitForDefinition, waitForDefinitionCleanup) with the same checks on `/openapi/v3`.
 */
import { randomInt } from 'node:crypto';
import { parse } from 'yaml';
import type { TestServer } from './in-process.js';
import { createCrd, deleteCrd, eventually, type CrdJson } from './upstream-crds.js';

const BASE = 'crd-publish-openapi';

export const schemaFoo = parse(`description: Foo CRD for Testing
type: object
properties:
  spec:
    type: object
    description: Specification of Foo
    properties:
      bars:
        description: List of Bars and their specs.
        type: array
        items:
          type: object
          required:
          - name
          properties:
            name:
              description: Name of Bar.
              type: string
            age:
              description: Age of Bar.
              type: string
            feeling:
              description: Whether Bar is feeling great.
              type: string
              enum:
              - Great
              - Down
            bazs:
              description: List of Bazs.
              items:
                type: string
              type: array
  status:
    description: Status of Foo
    type: object
    properties:
      bars:
        description: List of Bars and their statuses.
        type: array
        items:
          type: object
          properties:
            name:
              description: Name of Bar.
              type: string
            available:
              description: Whether the Bar is installed.
              type: boolean
            quxType:
              description: Indicates to external qux type.
              pattern: in-tree|out-of-tree
              type: string`);

const waldoParts = `  spec:
    description: Specification of Waldo
    type: object
    properties:
      dummy:
        description: Dummy property.
        type: object
  status:
    description: Status of Waldo
    type: object
    properties:
      bars:
        description: List of Bars and their statuses.
        type: array
        items:
          type: object`;

export const schemaWaldo = parse(`description: Waldo CRD for Testing
type: object
properties:
${waldoParts}`);

export const schemaPreserveRoot = parse(`description: preserve-unknown-properties at root for Testing
x-kubernetes-preserve-unknown-fields: true
type: object
properties:
${waldoParts}`);

export const schemaPreserveNested = parse(`description: preserve-unknown-properties in nested field for Testing
type: object
properties:
${waldoParts.replace('    type: object\n', '    type: object\n    x-kubernetes-preserve-unknown-fields: true\n')}`);

export const schemaCustomService = parse(`description: CustomService CRD for Testing
type: object
properties:
  spec:
    description: Specification of CustomService
    type: object
    properties:
      dummy:
        description: Dummy property.
        type: string`);

/**
 * CreateMultiVersionTestCRD with setupCRDAndVerifySchemaWithOptions' versions: namespaced,
 * the first version stored, each with `schema` (or, when null, an object preserving unknown
 * fields); `options` edit the definition before it is created.
 */
export function testCrd(
  schema: Record<string, unknown> | null,
  groupSuffix: string,
  versions: string[],
  options: ((def: CrdJson) => void)[] = [],
): CrdJson {
  const name = `e2e-test-${BASE}-${randomInt(10_000)}-crd`;
  const group = `${BASE}-test-${groupSuffix}.example.com`;
  const def: CrdJson = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${name}s.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: `${name}s`, singular: name, kind: name, listKind: `${name}List` },
      versions: versions.map((v, i) => ({
        name: v,
        served: true,
        storage: i === 0,
        schema: {
          openAPIV3Schema: schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      })),
    },
  };
  for (const option of options) option(def);
  return def;
}

/** definitionName: the REST-friendly name of `<group>/<version>/<kind>` (the group's labels reversed). */
export function definitionName(def: CrdJson, version: string): string {
  return `${def.spec.group.split('.').reverse().join('.')}.${version}.${def.spec.names.kind}`;
}

/** dropDefaults: the published schema without what the server adds (TypeMeta, ObjectMeta, GVK, selectable fields). */
export function dropDefaults(published: Record<string, any>): Record<string, any> {
  const out = structuredClone(published);
  if (out.properties) {
    for (const k of ['metadata', 'apiVersion', 'kind']) delete out.properties[k];
    if (Object.keys(out.properties).length === 0) delete out.properties;
  }
  delete out['x-kubernetes-group-version-kind'];
  delete out['x-kubernetes-selectable-fields'];
  return out;
}

/** The last `/openapi/v2` read per server, with its ETag: unchanged documents are 304 (as upstream's wait). */
const lastV2 = new WeakMap<object, { etag: string; definitions: Record<string, any> }>();

async function v2Definitions(srv: TestServer): Promise<Record<string, any>> {
  const last = lastV2.get(srv.running);
  const res = await srv.api('GET', '/openapi/v2', undefined, last ? { 'if-none-match': last.etag } : {});
  if (res.status === 304 && last) return last.definitions;
  if (res.status !== 200) throw new Error(`/openapi/v2: ${res.status}`);
  lastV2.set(srv.running, { etag: String(res.headers.etag), definitions: res.body.definitions });
  return res.body.definitions;
}

async function v3Schemas(srv: TestServer, def: CrdJson, version: string): Promise<Record<string, any>> {
  const res = await srv.api('GET', `/openapi/v3/apis/${def.spec.group}/${version}`);
  return res.status === 200 ? res.body.components.schemas : {};
}

/**
 * waitForDefinition: until `/openapi/v2` has the version's definition and, when `expected` is
 * given, it equals `expected` once dropDefaults took the server's additions away; then the
 * group version's `/openapi/v3` document has the schema too (equal to `expectedV3` if given).
 */
export async function waitForDefinition(
  srv: TestServer,
  def: CrdJson,
  version: string,
  expected: unknown,
  expectedV3?: unknown,
): Promise<void> {
  const name = definitionName(def, version);
  let last: unknown;
  await eventually(
    async () => {
      last = (await v2Definitions(srv))[name];
      return last !== undefined && (expected === undefined || isEqual(dropDefaults(last as any), expected));
    },
    () => `${name} in /openapi/v2 as ${JSON.stringify(expected)}; last ${JSON.stringify(last)}`,
  );
  await eventually(
    async () => {
      last = (await v3Schemas(srv, def, version))[name];
      return last !== undefined && (expectedV3 === undefined || isEqual(dropDefaults(last as any), expectedV3));
    },
    () => `${name} in /openapi/v3 as ${JSON.stringify(expectedV3)}; last ${JSON.stringify(last)}`,
  );
}

/** waitForDefinitionCleanup: until neither `/openapi/v2` nor `/openapi/v3` has the version's definition. */
export async function waitForDefinitionCleanup(srv: TestServer, def: CrdJson, version: string): Promise<void> {
  const name = definitionName(def, version);
  await eventually(async () => !(name in (await v2Definitions(srv))), `${name} gone from /openapi/v2`);
  await eventually(async () => !(name in (await v3Schemas(srv, def, version))), `${name} gone from /openapi/v3`);
}

/** setupCRDAndVerifySchema: create the definition and wait for each version's published schema. */
export async function setupCrd(
  srv: TestServer,
  def: CrdJson,
  expected: unknown,
  expectedV3?: unknown,
): Promise<CrdJson> {
  await createCrd(srv, def);
  for (const v of def.spec.versions) await waitForDefinition(srv, def, v.name, expected, expectedV3);
  return def;
}

/** cleanupCRD: delete the definition and wait until no version's schema is published. */
export async function cleanupCrd(srv: TestServer, def: CrdJson): Promise<void> {
  await deleteCrd(srv, def);
  for (const v of def.spec.versions) await waitForDefinitionCleanup(srv, def, v.name);
}

function isEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}
