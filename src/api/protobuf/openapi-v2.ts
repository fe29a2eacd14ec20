/**
 * Swagger 2.0 in protobuf, as kubectl asks for it
 * (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`): gnostic's openapi_v2
 * Document message. Field numbers from google/gnostic openapiv2/OpenAPIv2.proto; vendor
 * extensions and enum values travel as YAML text in `Any.yaml`, as kube-openapi writes them.
 * Only the parts our documents use are defined. Pure; no I/O.
 */
import { stringify as toYaml } from 'yaml';
import { compileMessages, type MessageSet } from './messages.js';

const GNOSTIC_MESSAGES: MessageSet = {
  Document:
    'swagger=1 info=2:Info host=3 basePath=4 schemes=5:[]string consumes=6:[]string produces=7:[]string paths=8:Paths definitions=9:Definitions vendorExtension=16:[]NamedAny',
  Info: 'title=1 version=2 description=3',
  Any: 'yaml=2',
  NamedAny: 'name=1 value=2:Any',
  Paths: 'vendorExtension=1:[]NamedAny path=2:[]NamedPathItem',
  NamedPathItem: 'name=1 value=2:PathItem',
  PathItem:
    'ref=1 get=2:Operation put=3:Operation post=4:Operation delete=5:Operation options=6:Operation head=7:Operation patch=8:Operation parameters=9:[]ParametersItem vendorExtension=10:[]NamedAny',
  Operation:
    'tags=1:[]string summary=2 description=3 operationId=5 produces=6:[]string consumes=7:[]string parameters=8:[]ParametersItem responses=9:Responses schemes=10:[]string deprecated=11:bool vendorExtension=13:[]NamedAny',
  ParametersItem: 'parameter=1:Parameter jsonReference=2:JsonReference',
  JsonReference: 'ref=1 description=2',
  Parameter: 'bodyParameter=1:BodyParameter nonBodyParameter=2:NonBodyParameter',
  BodyParameter: 'description=1 name=2 in=3 required=4:bool schema=5:Schema vendorExtension=6:[]NamedAny',
  NonBodyParameter: 'queryParameterSubSchema=3:QueryParameterSubSchema pathParameterSubSchema=4:PathParameterSubSchema',
  QueryParameterSubSchema:
    'required=1:bool in=2 description=3 name=4 allowEmptyValue=5:bool type=6 format=7 uniqueItems=20:bool vendorExtension=23:[]NamedAny',
  PathParameterSubSchema:
    'required=1:bool in=2 description=3 name=4 type=5 format=6 uniqueItems=19:bool vendorExtension=22:[]NamedAny',
  Responses: 'responseCode=1:[]NamedResponseValue vendorExtension=2:[]NamedAny',
  NamedResponseValue: 'name=1 value=2:ResponseValue',
  ResponseValue: 'response=1:Response jsonReference=2:JsonReference',
  Response: 'description=1 schema=2:SchemaItem vendorExtension=5:[]NamedAny',
  SchemaItem: 'schema=1:Schema',
  Schema:
    'ref=1 format=2 title=3 description=4 default=5:Any required=19:[]string enum=20:[]Any additionalProperties=21:AdditionalPropertiesItem ' +
    'type=22:TypeItem items=23:ItemsItem allOf=24:[]Schema properties=25:Properties readOnly=27:bool vendorExtension=31:[]NamedAny',
  AdditionalPropertiesItem: 'schema=1:Schema boolean=2:bool',
  TypeItem: 'value=1:[]string',
  ItemsItem: 'schema=1:[]Schema',
  Properties: 'additionalProperties=1:[]NamedSchema',
  NamedSchema: 'name=1 value=2:Schema',
  Definitions: 'additionalProperties=1:[]NamedSchema',
};

const { root } = compileMessages(GNOSTIC_MESSAGES);
// A Swagger document built by api/openapi-v2.ts and read back here field by field, each field
// with the gnostic message it becomes: typing every node would restate that document's shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const yaml = (value: unknown) => ({ yaml: toYaml(value) });
const extensions = (obj: Json) =>
  Object.entries(obj)
    .filter(([k]) => k.startsWith('x-'))
    .map(([name, value]) => ({ name, value: yaml(value) }));

function schema(s: Json): Json {
  const out: Json = {};
  if (s.$ref) out.ref = s.$ref;
  for (const key of ['format', 'title', 'description', 'required', 'readOnly'])
    if (s[key] !== undefined) out[key] = s[key];
  if (s.type) out.type = { value: [s.type] };
  if (s.enum) out.enum = s.enum.map(yaml);
  if (s.default !== undefined) out.default = yaml(s.default);
  if (s.items) out.items = { schema: [schema(s.items)] };
  if (s.allOf) out.allOf = s.allOf.map(schema);
  if (s.properties)
    out.properties = {
      additionalProperties: Object.entries(s.properties).map(([name, v]) => ({ name, value: schema(v as Json) })),
    };
  if (s.additionalProperties !== undefined)
    out.additionalProperties =
      typeof s.additionalProperties === 'boolean'
        ? { boolean: s.additionalProperties }
        : { schema: schema(s.additionalProperties) };
  const ext = extensions(s);
  if (ext.length) out.vendorExtension = ext;
  return out;
}

function parameter(p: Json): Json {
  if (p.in === 'body')
    return {
      parameter: {
        bodyParameter: {
          name: p.name,
          in: 'body',
          required: !!p.required,
          description: p.description ?? '',
          schema: schema(p.schema),
        },
      },
    };
  const sub = {
    required: !!p.required,
    in: p.in,
    description: p.description ?? '',
    name: p.name,
    type: p.type,
    uniqueItems: !!p.uniqueItems,
  };
  return {
    parameter: {
      nonBodyParameter: p.in === 'path' ? { pathParameterSubSchema: sub } : { queryParameterSubSchema: sub },
    },
  };
}

function operation(op: Json): Json {
  return {
    description: op.description ?? '',
    operationId: op.operationId,
    consumes: op.consumes ?? [],
    produces: op.produces ?? [],
    schemes: op.schemes ?? [],
    parameters: (op.parameters ?? []).map(parameter),
    responses: {
      responseCode: Object.entries<Json>(op.responses ?? {}).map(([name, r]) => ({
        name,
        value: {
          response: { description: r.description ?? '', ...(r.schema ? { schema: { schema: schema(r.schema) } } : {}) },
        },
      })),
    },
    vendorExtension: extensions(op),
  };
}

/** Encode a Swagger 2.0 document (as swaggerDocument builds it) as a gnostic openapi_v2.Document. */
export function encodeSwaggerProtobuf(doc: Json): Uint8Array {
  const message = {
    swagger: doc.swagger,
    info: doc.info,
    paths: {
      path: Object.entries<Json>(doc.paths).map(([name, item]) => ({
        name,
        value: {
          ...Object.fromEntries(
            ['get', 'put', 'post', 'delete', 'patch'].filter((m) => item[m]).map((m) => [m, operation(item[m])]),
          ),
          parameters: (item.parameters ?? []).map(parameter),
        },
      })),
    },
    definitions: {
      additionalProperties: Object.entries(doc.definitions).map(([name, s]) => ({ name, value: schema(s as Json) })),
    },
  };
  const type = root.lookupType('Document');
  return type.encode(type.fromObject(message)).finish();
}

/** Decode a gnostic Document (for tests): the protobufjs object with gnostic's field names in camelCase. */
export function decodeSwaggerProtobuf(bytes: Uint8Array): Json {
  const type = root.lookupType('Document');
  return type.toObject(type.decode(bytes), { defaults: false }) as Json;
}
