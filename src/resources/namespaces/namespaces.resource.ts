/**
 * Namespace (core/v1, cluster-scoped). Lifecycle as upstream (pkg/registry/core/namespace):
 * Active on create with the `kubernetes` finalizer in spec.finalizers; updates keep
 * spec.finalizers and status; `/status` writes only status; `/finalize` only spec.finalizers;
 * delete goes Terminating first (namespace-deletion.ts).
 */
import { namespacePrinter } from './namespaces.table.js';
import { namespaceSchema, type Namespace } from './namespaces.schema.js';
import { defineResource, mergeMetaForSubresource, statusSubresource } from '../define.js';
import { namespaceMessages } from './namespaces.protobuf.js';
import { deleteNamespace } from './namespace-deletion.js';
import { validateDns1123Label } from '../../api/names.js';
import { recordOf } from '../../api/json.js';
import type { ApiObject } from '../../api/object.js';
import { validateNamespace, validateNamespaceUpdate } from './namespaces.validation.js';

/** The system finalizer the namespace controller removes once the namespace is empty. */
export const NAMESPACE_FINALIZER = 'kubernetes';

type NamespaceSpec = NonNullable<Namespace['spec']>;

function specOf(obj: Namespace): NamespaceSpec {
  return obj.spec ?? {};
}

/** The spec.finalizers a `/finalize` request asks for (checked against the schema: a list of strings). */
function requestedFinalizers(requested: ApiObject): string[] {
  const finalizers = recordOf(requested.spec).finalizers;
  return Array.isArray(finalizers) ? finalizers : [];
}

/** The label every namespace carries with its own name (upstream v1.LabelMetadataName, GA in 1.22). */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/**
 * Label `ns` with its name, whatever a client sent (upstream SetDefaults_Namespace and the
 * strategy's Canonicalize): NetworkPolicies select namespaces by it.
 */
function labelWithName(ns: Namespace): void {
  const name = ns.metadata.name;
  if (name) ns.metadata.labels = { ...ns.metadata.labels, [NAMESPACE_NAME_LABEL]: name };
}

export const namespaces = defineResource({
  kind: 'Namespace',
  description: 'Namespace provides a scope for names; most objects live in one.',
  protobuf: namespaceMessages,
  plural: 'namespaces',
  namespaced: false,
  schema: namespaceSchema,
  printer: namespacePrinter,
  shortNames: ['ns'],
  deleteReturnsObject: true,
  validateName: validateDns1123Label,
  deleteHandler: deleteNamespace,
  subresources: [
    statusSubresource('Namespace'),
    {
      name: 'finalize',
      kind: 'Namespace',
      verbs: ['update'],
      merge: (requested, old) => ({
        ...old,
        metadata: mergeMetaForSubresource(requested, old),
        spec: { ...specOf(old), finalizers: requestedFinalizers(requested) },
      }),
    },
  ],
  strategy: {
    prepareForCreate(obj) {
      labelWithName(obj);
      const finalizers = new Set(specOf(obj).finalizers ?? []);
      finalizers.add(NAMESPACE_FINALIZER);
      obj.spec = { ...specOf(obj), finalizers: [...finalizers] };
      obj.status = { phase: 'Active' };
    },
    prepareForUpdate(obj, old) {
      labelWithName(obj);
      obj.spec = { ...specOf(obj), finalizers: specOf(old).finalizers ?? [] };
      obj.status = old.status;
    },
    validate: validateNamespace,
    validateUpdate: validateNamespaceUpdate,
  },
  selectableFields: ['status.phase'],
  fieldLabelAliases: { name: 'metadata.name' },
  fieldSet: (obj) => ({ 'status.phase': String(obj.status?.phase ?? '') }),
});
