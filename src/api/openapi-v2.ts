/**
 * Swagger 2.0 (`/openapi/v2`) from the OpenAPI 3.0 documents of every group version, in the
 * shape upstream's kube-openapi builder gives: `#/definitions/...` references, int-or-string
 * as `type: string, format: int-or-string`, query and path parameters with a plain `type`,
 * request bodies as a `body` parameter, and the same `x-kubernetes-*` extensions (kubectl
 * 1.27/1.28 read patch metadata and the `fieldValidation` parameter of PATCH operations from
 * here). Pure; no I/O.
 */
import type { OpenApiSchema } from './openapi-schema.js';

type Json = Record<string, any>;

/** A v3 schema as v2 writes it. */
export function toSwaggerSchema(schema: Json): Json {
  if (schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map(toSwaggerSchema);
  if (schema['x-kubernetes-int-or-string']) {
    const { anyOf: _anyOf, ...rest } = schema;
    return { ...rest, type: 'string', format: 'int-or-string' };
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string') out.$ref = value.replace('#/components/schemas/', '#/definitions/');
    else if (key === 'properties') out.properties = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, toSwaggerSchema(v)]));
    else if (key === 'items' || key === 'additionalProperties') out[key] = typeof value === 'object' ? toSwaggerSchema(value) : value;
    else out[key] = value;
  }
  return out;
}

function toSwaggerParameter(p: Json): Json {
  const { schema, ...rest } = p;
  return { ...rest, type: schema?.type ?? 'string' };
}

const PRODUCES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

function toSwaggerOperation(op: Json): Json {
  const out: Json = { description: op.description ?? op.operationId, consumes: ['*/*'], produces: PRODUCES, schemes: ['https'], operationId: op.operationId };
  const parameters = (op.parameters ?? []).map(toSwaggerParameter);
  if (op.requestBody) {
    const types = Object.keys(op.requestBody.content);
    const schema = op.requestBody.content[types[0]].schema;
    parameters.push({ name: 'body', in: 'body', required: true, schema: toSwaggerSchema(schema) });
    out.consumes = types;
  }
  out.parameters = parameters;
  out.responses = Object.fromEntries(
    Object.entries(op.responses ?? {}).map(([code, r]: [string, any]) => {
      const content = r.content?.['application/json'];
      return [code, content ? { description: r.description, schema: toSwaggerSchema(content.schema) } : { description: r.description }];
    }),
  );
  for (const [key, value] of Object.entries(op)) if (key.startsWith('x-')) out[key] = value;
  return out;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** One Swagger 2.0 document covering every group version's v3 document. */
export function swaggerDocument(v3docs: readonly OpenApiSchema[], info: { title: string; version: string }): Json {
  const paths: Json = {};
  const definitions: Json = {};
  for (const doc of v3docs as Json[]) {
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) definitions[name] = toSwaggerSchema(schema as Json);
    for (const [path, item] of Object.entries(doc.paths ?? {}) as [string, Json][]) {
      const out: Json = {};
      for (const method of METHODS) if (item[method]) out[method] = toSwaggerOperation(item[method]);
      if (item.parameters?.length) out.parameters = item.parameters.map(toSwaggerParameter);
      paths[path] = out;
    }
  }
  return { swagger: '2.0', info, paths, definitions };
}
