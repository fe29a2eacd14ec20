/**
 * Swagger 2.0 (`/openapi/v2`) from the OpenAPI 3.0 documents of every group version, in the
 * shape upstream's kube-openapi builder gives: `#/definitions/...` references, int-or-string
 * as `type: string, format: int-or-string`, query and path parameters with a plain `type`,
 * request bodies as a `body` parameter, and the same `x-kubernetes-*` extensions (kubectl
 * 1.27/1.28 read patch metadata and the `fieldValidation` parameter of PATCH operations from
 * here). Pure; no I/O.
 */
import { recordOf } from './json.js';
import type { OpenApiSchema } from './openapi-schema.js';

/** A Swagger 2.0 object (a document, an operation, a schema). */
type SwaggerObject = Record<string, unknown>;

/** The items of a list field of an OpenAPI object (absent: none). */
const listOf = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : []);

/** A v3 schema as v2 writes it. */
export function toSwaggerSchema(schema: unknown): unknown {
  if (schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map(toSwaggerSchema);
  const fields = recordOf(schema);
  if (fields['x-kubernetes-int-or-string']) {
    const { anyOf: _anyOf, ...rest } = fields;
    return { ...rest, type: 'string', format: 'int-or-string' };
  }
  const out: SwaggerObject = {};
  for (const [key, value] of Object.entries(fields)) {
    if (key === '$ref' && typeof value === 'string')
      out.$ref = value.replace('#/components/schemas/', '#/definitions/');
    else if (key === 'properties')
      out.properties = Object.fromEntries(Object.entries(recordOf(value)).map(([k, v]) => [k, toSwaggerSchema(v)]));
    else if (key === 'items' || key === 'additionalProperties')
      out[key] = typeof value === 'object' ? toSwaggerSchema(value) : value;
    else out[key] = value;
  }
  return out;
}

function toSwaggerParameter(p: unknown): SwaggerObject {
  const { schema, ...rest } = recordOf(p);
  return { ...rest, type: recordOf(schema).type ?? 'string' };
}

const PRODUCES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

function toSwaggerOperation(op: SwaggerObject): SwaggerObject {
  const out: SwaggerObject = {
    description: op.description ?? op.operationId,
    consumes: ['*/*'],
    produces: PRODUCES,
    schemes: ['https'],
    operationId: op.operationId,
  };
  const parameters = listOf(op.parameters).map(toSwaggerParameter);
  if (op.requestBody) {
    const content = recordOf(recordOf(op.requestBody).content);
    const types = Object.keys(content);
    const schema = recordOf(content[types[0]]).schema;
    parameters.push({ name: 'body', in: 'body', required: true, schema: toSwaggerSchema(schema) });
    out.consumes = types;
  }
  out.parameters = parameters;
  out.responses = Object.fromEntries(
    Object.entries(recordOf(op.responses)).map(([code, response]) => {
      const r = recordOf(response);
      const content = recordOf(r.content)['application/json'];
      return [
        code,
        content
          ? { description: r.description, schema: toSwaggerSchema(recordOf(content).schema) }
          : { description: r.description },
      ];
    }),
  );
  for (const [key, value] of Object.entries(op)) if (key.startsWith('x-')) out[key] = value;
  return out;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** One Swagger 2.0 document covering every group version's v3 document. */
export function swaggerDocument(
  v3docs: readonly OpenApiSchema[],
  info: { title: string; version: string },
): SwaggerObject {
  const paths: SwaggerObject = {};
  const definitions: SwaggerObject = {};
  for (const doc of v3docs) {
    for (const [name, schema] of Object.entries(recordOf(recordOf(doc.components).schemas)))
      definitions[name] = toSwaggerSchema(schema);
    for (const [path, pathItem] of Object.entries(recordOf(doc.paths))) {
      const item = recordOf(pathItem);
      const out: SwaggerObject = {};
      for (const method of METHODS) if (item[method]) out[method] = toSwaggerOperation(recordOf(item[method]));
      const parameters = listOf(item.parameters);
      if (parameters.length) out.parameters = parameters.map(toSwaggerParameter);
      paths[path] = out;
    }
  }
  return { swagger: '2.0', info, paths, definitions };
}
