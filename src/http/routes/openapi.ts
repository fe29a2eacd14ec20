/**
 * OpenAPI v2 (upstream kube-openapi handler: one Swagger 2.0 document, JSON or gnostic
 * protobuf, with an ETag) and OpenAPI v3 (upstream k8s.io/kube-openapi handler3): `/openapi/v3` lists each served group
 * version with a `serverRelativeURL` carrying a content hash; `/openapi/v3/<gv>` serves an
 * OpenAPI 3.0 document generated from the resource table: a schema per kind (with
 * `x-kubernetes-group-version-kind` and list patch metadata) and every operation with its
 * query parameters, `fieldValidation` included (kubectl then delegates validation to us).
 */
import { createHash } from 'node:crypto';
import type Router from '@koa/router';
import { toOpenApi, type OpenApiSchema } from '../../api/openapi-schema.js';
import { swaggerDocument } from '../../api/openapi-v2.js';
import { customResourceSwaggerSchema } from '../../resources/customresources/openapi-v2.js';
import { encodeSwaggerProtobuf } from '../../api/protobuf/openapi-v2.js';
import { notAcceptable } from '../../errors/api-error.js';
import { groupVersionOf, type ResourceDefinition, type SubresourceDefinition } from '../../registry/types.js';
import type { ApiState } from '../context.js';
import { resourceNotFound } from '../handlers/resource-handler.js';

type Op = Record<string, unknown>;
/** The documents' `info`: the server and the Kubernetes version it reports (as upstream's `Kubernetes`, `v1.33.0`). */
export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
}

const DEFAULT_INFO: OpenApiInfo = { title: 'ck-apiserver', version: 'v1.33.0' };

/**
 * Upstream's definition names: io.k8s.api.<group>.<version>.<Kind> (core for the legacy group,
 * the group's first label otherwise, for upstream's groups: `apps`, `rbac.authorization.k8s.io`);
 * io.ck.api.<first label> for the spec's own groups, so a kind served under both names
 * (rbac.authorization.k8s.io and .ck.io) has a definition, with its own tag, under each.
 */
const schemaName = (d: Pick<ResourceDefinition, 'group' | 'version' | 'kind' | 'openApiSchema'>) => {
  if (!d.group) return `io.k8s.api.core.${d.version}.${d.kind}`;
  // A custom resource: its group's labels reversed (upstream's CRD OpenAPI builder: `com.example.v1.Widget`).
  if (d.openApiSchema) return `${d.group.split('.').reverse().join('.')}.${d.version}.${d.kind}`;
  const upstream = !d.group.includes('.') || d.group.endsWith('.k8s.io');
  return `${upstream ? 'io.k8s.api' : 'io.ck.api'}.${d.group.split('.')[0]}.${d.version}.${d.kind}`;
};
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const query = (name: string, type: string, description: string) => ({
  name,
  in: 'query',
  description,
  schema: { type },
  uniqueItems: true,
});

const COMMON = [query('pretty', 'string', "If 'true', then the output is pretty printed.")];
const WRITE = [
  query('dryRun', 'string', 'When present, indicates that modifications should not be persisted.'),
  query(
    'fieldManager',
    'string',
    'fieldManager is a name associated with the actor or entity that is making these changes.',
  ),
  query('fieldValidation', 'string', 'How the server treats unknown fields: Ignore, Warn (default) or Strict.'),
];
const LIST = [
  'allowWatchBookmarks',
  'continue',
  'fieldSelector',
  'labelSelector',
  'limit',
  'resourceVersion',
  'timeoutSeconds',
  'watch',
].map((n) =>
  query(
    n,
    n === 'limit' || n === 'timeoutSeconds'
      ? 'integer'
      : n === 'watch' || n === 'allowWatchBookmarks'
        ? 'boolean'
        : 'string',
    `See the API conventions for ${n}.`,
  ),
);
const DELETE = [
  query('gracePeriodSeconds', 'integer', 'The duration in seconds before the object should be deleted.'),
  query('propagationPolicy', 'string', 'Orphan, Background or Foreground.'),
];
const pathParam = (name: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string' },
  uniqueItems: true,
});
const json = (schema: unknown) => ({ content: { 'application/json': { schema }, 'application/yaml': { schema } } });

/** What an operation acts on: its kind (with group and version), scope and operationId suffix. */
interface OpTarget {
  readonly gvk: { readonly group: string; readonly version: string; readonly kind: string };
  /** The resource's kind, which names the operation (`readNamespacedPodStatus`). */
  readonly resourceKind: string;
  readonly namespaced: boolean;
  /** Subresource suffix of the operationId (`Status`, `Scale`, `Binding`), or ''. */
  readonly suffix: string;
  /** Reference to the body and response schema. */
  readonly self: unknown;
}

const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
];
const PATCH_PARAMS = [...WRITE, query('force', 'boolean', 'Force is going to "force" Apply requests.')];

function operation(
  t: OpTarget,
  action: string,
  verb: string,
  params: object[],
  body?: unknown,
  response?: unknown,
  bodyTypes?: string[],
): Op {
  const op: Op = {
    operationId: `${verb}${t.namespaced ? 'Namespaced' : ''}${t.resourceKind}${t.suffix}`,
    parameters: [...COMMON, ...params],
    responses: { '200': { description: 'OK', ...json(response ?? t.self) }, '401': { description: 'Unauthorized' } },
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': t.gvk,
  };
  if (body)
    op.requestBody = bodyTypes
      ? { content: Object.fromEntries(bodyTypes.map((b) => [b, { schema: body }])), required: true }
      : { ...json(body), required: true };
  return op;
}

const targetOf = (def: ResourceDefinition): OpTarget => ({
  gvk: { group: def.group, version: def.version, kind: def.kind },
  resourceKind: def.kind,
  namespaced: def.namespaced,
  suffix: '',
  self: ref(schemaName(def)),
});

function pathsOf(def: ResourceDefinition, root: string): Record<string, Op> {
  const paths: Record<string, Op> = {};
  const nsPrefix = def.namespaced ? '/namespaces/{namespace}' : '';
  const nsParams = def.namespaced ? [pathParam('namespace')] : [];
  const collection: Op = { parameters: nsParams };
  const item: Op = { parameters: [...nsParams, pathParam('name')] };
  const list = ref(`${schemaName(def)}List`);
  const t = targetOf(def);
  for (const verb of def.verbs) {
    if (verb === 'list') collection.get = operation(t, 'list', 'list', LIST, undefined, list);
    if (verb === 'create') collection.post = operation(t, 'post', 'create', WRITE, t.self);
    if (verb === 'deletecollection')
      collection.delete = operation(t, 'deletecollection', 'deleteCollection', [...LIST, ...DELETE], undefined, list);
    if (verb === 'get')
      item.get = operation(t, 'get', 'read', [query('resourceVersion', 'string', 'See the API conventions.')]);
    if (verb === 'update') item.put = operation(t, 'put', 'replace', WRITE, t.self);
    if (verb === 'patch')
      item.patch = operation(t, 'patch', 'patch', PATCH_PARAMS, { type: 'object' }, undefined, PATCH_TYPES);
    if (verb === 'delete')
      item.delete = operation(t, 'delete', 'delete', DELETE, ref('io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions'));
  }
  paths[`${root}${nsPrefix}/${def.plural}`] = collection;
  if (item.get || item.put || item.patch || item.delete) paths[`${root}${nsPrefix}/${def.plural}/{name}`] = item;
  if (def.namespaced && def.verbs.includes('list'))
    paths[`${root}/${def.plural}`] = { get: operation(t, 'list', 'listAllNamespaces', LIST, undefined, list) };
  return paths;
}

/**
 * Operations of a kind's subresources (`pods/{name}/status`, `replicationcontrollers/{name}/scale`,
 * `pods/{name}/binding`, `namespaces/{name}/finalize`), as upstream publishes them. A view with
 * its own kind (Scale) gets a schema in `schemas`; one named by a served kind (Binding) refers to it.
 */
function subresourcePathsOf(
  def: ResourceDefinition,
  defs: readonly ResourceDefinition[],
  root: string,
  schemas: Record<string, unknown>,
): Record<string, Op> {
  const paths: Record<string, Op> = {};
  const nsPrefix = def.namespaced ? '/namespaces/{namespace}' : '';
  for (const sub of def.subresources) {
    if (sub.connect) {
      Object.assign(paths, connectPathsOf(def, sub, `${root}${nsPrefix}/${def.plural}/{name}/${sub.name}`));
      continue;
    }
    const gvk = {
      ...(sub.apiVersion ? groupVersionOf(sub.apiVersion) : { group: def.group, version: def.version }),
      kind: sub.kind,
    };
    const named = defs.find((d) => d.kind === gvk.kind && d.group === gvk.group && d.version === gvk.version);
    if (!named && sub.schema)
      schemas[schemaName(gvk)] = { ...toOpenApi(sub.schema), 'x-kubernetes-group-version-kind': [gvk] };
    const self = named ? ref(schemaName(named)) : sub.schema ? ref(schemaName(gvk)) : { type: 'object' };
    const suffix = sub.name.charAt(0).toUpperCase() + sub.name.slice(1);
    const t: OpTarget = { gvk, resourceKind: def.kind, namespaced: def.namespaced, suffix, self };
    const item: Op = { parameters: [...(def.namespaced ? [pathParam('namespace')] : []), pathParam('name')] };
    for (const verb of sub.verbs) {
      if (verb === 'get') item.get = operation(t, 'get', 'read', []);
      if (verb === 'update') item.put = operation(t, 'put', 'replace', WRITE, self);
      if (verb === 'patch')
        item.patch = operation(t, 'patch', 'patch', PATCH_PARAMS, { type: 'object' }, undefined, PATCH_TYPES);
      if (verb === 'create') item.post = operation(t, 'post', 'create', WRITE, self);
    }
    paths[`${root}${nsPrefix}/${def.plural}/{name}/${sub.name}`] = item;
  }
  return paths;
}

/**
 * Operations of a connect subresource, as upstream publishes them: a getter reads a text
 * answer (`readNamespacedPodLog`); the others have one `connect<Method>` operation per HTTP
 * method (`connectPostNamespacedPodExec`), and those taking a path a second path `/{path}`.
 */
function connectPathsOf(def: ResourceDefinition, sub: SubresourceDefinition, path: string): Record<string, Op> {
  const connect = sub.connect as NonNullable<SubresourceDefinition['connect']>;
  const t: OpTarget = {
    gvk: { group: def.group, version: def.version, kind: def.kind },
    resourceKind: def.kind,
    namespaced: def.namespaced,
    suffix: '',
    self: { type: 'string' },
  };
  const suffix = sub.name.charAt(0).toUpperCase() + sub.name.slice(1);
  const params = [...(def.namespaced ? [pathParam('namespace')] : []), pathParam('name')];
  const build = (withPath: boolean): Op => {
    const item: Op = { parameters: withPath ? [...params, pathParam('path')] : params };
    for (const method of connect.methods) {
      const m = method.toLowerCase();
      const readOnly = connect.getter === true && method === 'GET';
      const name = readOnly ? 'read' : `connect${method.charAt(0)}${m.slice(1)}`;
      item[m] = operation(
        { ...t, suffix: `${suffix}${withPath ? 'WithPath' : ''}` },
        readOnly ? 'get' : 'connect',
        name,
        [],
      );
    }
    return item;
  };
  const paths: Record<string, Op> = { [path]: build(false) };
  if (connect.subpath) paths[`${path}/{path}`] = build(true);
  return paths;
}

/** A kind's schema with its description and the standard ones of spec and status. */
function kindSchema(def: ResourceDefinition): OpenApiSchema {
  if (def.openApiSchema) return def.openApiSchema as OpenApiSchema;
  const schema = toOpenApi(def.schema, def.patchMeta) as { properties?: Record<string, OpenApiSchema> };
  const props = schema.properties ?? {};
  if (props.spec && !props.spec.description)
    props.spec = { description: `Desired state of the ${def.kind}.`, ...props.spec };
  if (props.status && !props.status.description)
    props.status = {
      description: `Most recently observed state of the ${def.kind}, written by the system. Read-only.`,
      ...props.status,
    };
  return { description: def.description ?? `${def.kind} (${def.group || 'core'}/${def.version}).`, ...schema };
}

/** The OpenAPI 3.0 document of one group version. */
export function openApiDocument(
  defs: readonly ResourceDefinition[],
  group: string,
  version: string,
  info: OpenApiInfo = DEFAULT_INFO,
): OpenApiSchema {
  const served = defs.filter((d) => d.group === group && d.version === version);
  const root = group ? `/apis/${group}/${version}` : `/api/${version}`;
  const schemas: Record<string, unknown> = {
    'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions': {
      type: 'object',
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        gracePeriodSeconds: { type: 'integer' },
        orphanDependents: { type: 'boolean' },
        preconditions: { type: 'object', properties: { uid: { type: 'string' }, resourceVersion: { type: 'string' } } },
        propagationPolicy: { type: 'string' },
      },
    },
  };
  const paths: Record<string, Op> = {};
  for (const def of served) {
    const gvk = [{ group: def.group, version: def.version, kind: def.kind }];
    schemas[schemaName(def)] = { ...kindSchema(def), 'x-kubernetes-group-version-kind': gvk };
    schemas[`${schemaName(def)}List`] = {
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: { type: 'object' },
        items: { type: 'array', items: ref(schemaName(def)) },
      },
      'x-kubernetes-group-version-kind': [{ ...gvk[0], kind: `${def.kind}List` }],
    };
    Object.assign(paths, pathsOf(def, root), subresourcePathsOf(def, served, root, schemas));
  }
  return { openapi: '3.0.0', info, paths, components: { schemas } };
}

const hashOf = (data: string | Uint8Array) =>
  createHash('sha512').update(data).digest('hex').slice(0, 128).toUpperCase();

/**
 * Media types of Swagger 2.0 in protobuf (gnostic openapi_v2.Document), as kube-openapi names
 * them; answers always carry the second, as Go's mime parser rejects the `@` of the first.
 */
const SWAGGER_PROTOBUF_TYPES = [
  'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
  'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
];

/**
 * Install `/openapi/v2` (JSON, or protobuf for kubectl), `/openapi/v3` and one v3 document per
 * group version that serves resources.
 */
export function installOpenApiRoutes(
  router: Router<ApiState>,
  served: () => readonly ResourceDefinition[],
  info: OpenApiInfo = DEFAULT_INFO,
): void {
  // Built on first request, not at start: every replica and test server starts faster. Built
  // again once the served rows change (custom resources come and go; the array is replaced),
  // reusing each group version whose rows did not change.
  let built: { defs: readonly ResourceDefinition[]; docs: ReturnType<typeof buildDocuments> } | undefined;
  const byGroupVersion = new Map<string, GroupVersionDocument>();
  const documents = () => {
    const defs = served();
    if (built?.defs !== defs) built = { defs, docs: buildDocuments(defs, info, byGroupVersion) };
    return built.docs;
  };
  router.get('/openapi/v2', (ctx) => {
    const accept = (ctx.get('Accept') || '*/*').split(',').map((t) => t.split(';')[0].trim().toLowerCase());
    const protobuf = accept.find((t) => SWAGGER_PROTOBUF_TYPES.includes(t));
    const json = accept.some((t) => t === 'application/json' || t === '*/*' || t === 'application/*');
    if (!protobuf && !json) throw notAcceptable(['application/json', ...SWAGGER_PROTOBUF_TYPES]);
    const docs = documents();
    const v2 = protobuf ? docs.v2protobuf() : { body: docs.v2json, etag: docs.v2etag };
    const etag = v2.etag;
    ctx.set('ETag', etag);
    ctx.set('Vary', 'Accept');
    if (ctx.get('If-None-Match') === etag) {
      ctx.status = 304;
      return;
    }
    ctx.set('Content-Type', protobuf ? SWAGGER_PROTOBUF_TYPES[1] : 'application/json');
    ctx.body = v2.body;
  });
  router.get('/openapi/v3', (ctx) => {
    const paths = Object.fromEntries(
      [...documents().docs].map(([p, d]) => [p, { serverRelativeURL: `/openapi/v3/${p}?hash=${d.hash}` }]),
    );
    ctx.set('Content-Type', 'application/json');
    ctx.body = JSON.stringify({ paths });
  });
  router.get(/^\/openapi\/v3\/(.+)$/, (ctx) => {
    const doc = documents().docs.get(ctx.path.slice('/openapi/v3/'.length));
    if (!doc) throw resourceNotFound();
    ctx.set('Content-Type', 'application/json');
    ctx.set('ETag', `"${doc.hash}"`);
    if (ctx.query.hash === doc.hash) ctx.set('Cache-Control', 'public, immutable');
    ctx.body = doc.text;
  });
}

/** One group version's documents, kept while its rows stay the same objects. */
interface GroupVersionDocument {
  readonly rows: readonly ResourceDefinition[];
  readonly text: string;
  readonly hash: string;
  /** Its part of the v2 document. */
  readonly paths: Record<string, unknown>;
  readonly definitions: Record<string, unknown>;
}

function groupVersionDocument(
  rows: readonly ResourceDefinition[],
  group: string,
  version: string,
  info: OpenApiInfo,
): GroupVersionDocument {
  const doc = openApiDocument(rows, group, version, info);
  const text = JSON.stringify(doc);
  const swagger = swaggerDocument([doc], info);
  const definitions = swagger.definitions as Record<string, Record<string, unknown>>;
  // A custom resource's schema is published to v2 in the form kubectl's v2 readers cope with.
  for (const def of rows)
    if (def.openApiSchema && definitions[schemaName(def)])
      definitions[schemaName(def)] = customResourceSwaggerSchema(definitions[schemaName(def)]);
  return { rows, text, hash: hashOf(text), paths: swagger.paths as Record<string, unknown>, definitions };
}

const sameRows = (a: readonly ResourceDefinition[], b: readonly ResourceDefinition[]) =>
  a.length === b.length && a.every((row, i) => row === b[i]);

/**
 * The OpenAPI v3 document per group version, and the v2 document as JSON with its ETag and
 * (made on first use) as protobuf. `cache` keeps each group version's documents between
 * builds: only group versions whose rows changed are generated again.
 */
function buildDocuments(
  defs: readonly ResourceDefinition[],
  info: OpenApiInfo,
  cache: Map<string, GroupVersionDocument>,
) {
  const rowsByGv = new Map<string, ResourceDefinition[]>();
  for (const d of defs) {
    const key = `${d.group}/${d.version}`;
    const rows = rowsByGv.get(key);
    if (rows) rows.push(d);
    else rowsByGv.set(key, [d]);
  }
  for (const key of cache.keys()) if (!rowsByGv.has(key)) cache.delete(key);
  const docs = new Map<string, { text: string; hash: string }>();
  const paths: Record<string, unknown> = {};
  const definitions: Record<string, unknown> = {};
  for (const [key, rows] of rowsByGv) {
    let gv = cache.get(key);
    if (!gv || !sameRows(gv.rows, rows)) {
      const [group, version] = key.split('/') as [string, string];
      gv = groupVersionDocument(rows, group, version, info);
      cache.set(key, gv);
    }
    const [group, version] = key.split('/') as [string, string];
    docs.set(group ? `apis/${group}/${version}` : `api/${version}`, { text: gv.text, hash: gv.hash });
    Object.assign(paths, gv.paths);
    Object.assign(definitions, gv.definitions);
  }
  const swagger = { swagger: '2.0', info, paths, definitions };
  const v2json = JSON.stringify(swagger);
  let protobuf: { body: Buffer; etag: string } | undefined;
  // One ETag per representation (the two bodies differ).
  const v2protobuf = () => {
    if (!protobuf) {
      const body = Buffer.from(encodeSwaggerProtobuf(swagger));
      protobuf = { body, etag: `"${hashOf(body)}"` };
    }
    return protobuf;
  };
  return { docs, v2json, v2etag: `"${hashOf(v2json)}"`, v2protobuf };
}
