/**
 * The rows a CustomResourceDefinition serves (upstream apiextensions-apiserver crdHandler
 * getOrCreateServingInfoFor): one per served version at `/apis/<group>/<version>/<plural>`,
 * under the names the definition was accepted with (`status.acceptedNames`), stored at
 * `<group>/<accepted plural>` (upstream's etcd key `/registry/<group>/<plural>/...`), with its schema's
 * pruning, defaulting and validation, its `status` and `scale` subresources, printer columns
 * and selectable fields, served in JSON and YAML only. Objects are stored in the storage
 * version; with `conversion.strategy: None` the versions differ only in `apiVersion`. Every
 * read from storage is pruned and defaulted by the storage version's schema as it is now
 * (upstream's storage codec: schemaCoercingDecoder, then unstructuredDefaulter), so a default
 * added to a definition shows on objects stored before it.
 */
import { objectSchema, strictObjectMeta } from '../../api/meta-schema.js';
import { toOpenApi } from '../../api/openapi-schema.js';
import { badRequest } from '../../errors/api-error.js';
import { deepCopy, type ApiObject } from '../../api/object.js';
import { ALL_VERBS, type ResourceDefinition, type SubresourceDefinition } from '../../registry/types.js';
import { ConvertingStorage, type ObjectConverter } from '../../storage/converting-storage.js';
import { statusSubresource } from '../define.js';
import type { CustomResourceDefinition } from '../customresourcedefinitions/customresourcedefinitions.schema.js';
import type { JSONSchemaProps } from '../../api/crd-schema/types.js';
import { customResourceApplyType } from '../../api/apply/custom-resource-type.js';
import { patchMetaFromSchema } from './patch-meta.js';
import { customResourcePrinter } from './printer.js';
import { customResourceScale } from './scale.js';
import { schemaProcessorFor, type SchemaProcessor } from './schema-processing.js';
import { customResourceStrategy } from './strategy.js';

/** The key prefix of a definition's objects under the storage prefix: `<group>/<plural>`. */
export function customResourceStoragePrefix(crd: CustomResourceDefinition): string {
  return `${crd.spec.group}/${crd.status?.acceptedNames?.plural ?? ''}`;
}

/**
 * The rows of `crd`'s served versions (none when it has no accepted kind). `convert` is the
 * definition's conversion webhook (for `conversion.strategy: Webhook`): each version then sees
 * the storage through it (storage/converting-storage.ts), so objects are converted when read and
 * written, and pruned and defaulted by the served version's schema.
 */
export function customResourceRows(crd: CustomResourceDefinition, convert?: ObjectConverter): ResourceDefinition[] {
  const accepted = crd.status?.acceptedNames;
  const kind = accepted?.kind;
  const plural = accepted?.plural;
  if (!kind || !plural) return [];
  const { group } = crd.spec;
  const storageVersion = crd.spec.versions.find((v) => v.storage)?.name ?? crd.spec.versions[0]?.name ?? '';
  const storageApiVersion = `${group}/${storageVersion}`;
  const stored = crd.spec.versions.find((v) => v.name === storageVersion)?.schema?.openAPIV3Schema;
  const preserveUnknownFields = !!crd.spec.preserveUnknownFields;
  const webhook = crd.spec.conversion?.strategy === 'Webhook' ? convert : undefined;
  const fromStorage = readFromStorage(
    schemaProcessorFor((stored ?? undefined) as JSONSchemaProps | undefined, preserveUnknownFields),
  );
  return crd.spec.versions
    .filter((v) => v.served)
    .map((v): ResourceDefinition => {
      // The kind's zod type of a schema is looser than api/crd-schema's (it was checked on the CRD's write).
      const openApi = (v.schema?.openAPIV3Schema ?? undefined) as JSONSchemaProps | undefined;
      const schema = schemaProcessorFor(openApi, preserveUnknownFields);
      const status = Boolean(v.subresources?.status);
      const scale = v.subresources?.scale ?? undefined;
      const subresources: SubresourceDefinition[] = [];
      if (status) subresources.push(statusSubresource(kind));
      if (scale) subresources.push(customResourceScale(scale));
      const selectable = (v.selectableFields ?? []).map((f) => f.jsonPath.replace(/^\./, ''));
      return {
        group,
        version: v.name,
        kind,
        description: v.schema?.openAPIV3Schema?.description ?? undefined,
        plural,
        singular: accepted.singular || kind.toLowerCase(),
        shortNames: [...(accepted.shortNames ?? [])],
        categories: [...(accepted.categories ?? [])],
        namespaced: crd.spec.scope === 'Namespaced',
        storagePrefix: customResourceStoragePrefix(crd),
        verbs: ALL_VERBS,
        subresources,
        schema: objectSchema(),
        fieldCheck(obj) {
          const { unknown, error } = schema.decode(obj);
          if (error)
            throw badRequest(
              `${kind} in version "${v.name}" cannot be handled as a ${kind}: ${error.field}: ${error.message}`,
            );
          return { errors: [], unknown };
        },
        protobufServed: false,
        unstructured: true,
        openApiSchema: publishedSchema(openApi, selectable),
        printer: customResourcePrinter(v.additionalPrinterColumns),
        protobuf: {},
        patchMeta: patchMetaFromSchema(openApi),
        applyType: customResourceApplyType(openApi, preserveUnknownFields),
        strategy: customResourceStrategy(schema, status, scale, fromStorage),
        conversion: webhook
          ? { toStorage: (obj) => obj, fromStorage: readFromStorage(schema) }
          : {
              toStorage: (obj) => (v.name === storageVersion ? obj : { ...obj, apiVersion: storageApiVersion }),
              fromStorage,
            },
        storageFor: webhook
          ? (storage) => new ConvertingStorage(storage, webhook, `${group}/${v.name}`, storageApiVersion)
          : undefined,
        selectableFields: selectable.length ? selectable : undefined,
        fieldSet: selectable.length ? (obj) => selectableValues(obj, selectable) : undefined,
      };
    });
}

/**
 * A stored object as reads serve it (a copy: stored objects are shared): pruned, its
 * disallowed nulls dropped and defaulted by the storage version's schema. An embedded
 * resource's malformed metadata is served as stored (upstream drops the malformed fields).
 */
function readFromStorage(schema: SchemaProcessor): (obj: ApiObject) => ApiObject {
  // Once per stored object: a watch cache hands every reader the same object.
  const decoded = new WeakMap<ApiObject, ApiObject>();
  return (obj) => {
    let copy = decoded.get(obj);
    if (!copy) {
      copy = deepCopy(obj);
      schema.decode(copy);
      decoded.set(obj, copy);
    }
    return copy;
  };
}

/** The values of the selectable fields of `obj` as field selectors compare them (strings). */
function selectableValues(obj: ApiObject, fields: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of fields) {
    let cur: unknown = obj;
    for (const k of field.split('.'))
      cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined;
    if (typeof cur === 'string' || typeof cur === 'number' || typeof cur === 'boolean') out[field] = String(cur);
    else out[field] = '';
  }
  return out;
}

const TYPE_META_DOCS = {
  apiVersion:
    'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
  kind: 'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
  metadata:
    "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
};

/**
 * The schema published for a version in OpenAPI (upstream apiextensions-apiserver
 * pkg/controller/openapi/builder): its `openAPIV3Schema` with `apiVersion`, `kind` and
 * `metadata` (ObjectMeta) added at the root, so `kubectl explain` shows every field, and its
 * selectable fields (without the leading dot) as `x-kubernetes-selectable-fields`.
 */
function publishedSchema(props: unknown, selectable: readonly string[]): Record<string, unknown> {
  const root = (props && typeof props === 'object' ? structuredClone(props) : {}) as Record<string, unknown>;
  const properties = (root.properties ?? {}) as Record<string, unknown>;
  root.type ??= 'object';
  root.properties = {
    apiVersion: { type: 'string', description: TYPE_META_DOCS.apiVersion },
    kind: { type: 'string', description: TYPE_META_DOCS.kind },
    metadata: { ...toOpenApi(strictObjectMeta), description: TYPE_META_DOCS.metadata },
    ...Object.fromEntries(
      Object.entries(properties).filter(([k]) => k !== 'apiVersion' && k !== 'kind' && k !== 'metadata'),
    ),
  };
  if (selectable.length) root['x-kubernetes-selectable-fields'] = selectable.map((fieldPath) => ({ fieldPath }));
  return root;
}
