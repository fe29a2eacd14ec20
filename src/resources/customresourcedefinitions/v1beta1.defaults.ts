/**
 * CustomResourceDefinition defaults of apiextensions.k8s.io/v1beta1 (k8s.io/apiextensions-apiserver
 * pkg/apis/apiextensions/v1beta1 defaults.go and zz_generated.defaults.go, 1.21 = 1.33):
 * SetObjectDefaults_CustomResourceDefinition runs SetDefaults_CustomResourceDefinition (the spec
 * defaults, then no stored versions: the first storage version), the spec defaults again (they
 * are idempotent) and SetDefaults_ServiceReference (port 443). The spec defaults: `scope`
 * Namespaced, `names.singular` the lower-cased kind, `names.listKind` kind + "List", one served
 * and stored version from `version` when `versions` is empty, `version` the first of
 * `versions`, `conversion` {strategy: None}, a Webhook's `conversionReviewVersions` [v1beta1],
 * and `preserveUnknownFields` true (v1beta1 kept unknown fields unless told otherwise).
 */
import { DEFAULT_WEBHOOK_PORT } from './customresourcedefinitions.defaults.js';
import type { CustomResourceDefinitionV1beta1 } from './v1beta1.schema.js';

/** SetDefaults_CustomResourceDefinitionSpec, in place. */
function defaultSpec(spec: CustomResourceDefinitionV1beta1['spec']): void {
  if (!spec.scope) spec.scope = 'Namespaced';
  const names = spec.names;
  if (names) {
    if (!names.singular) names.singular = (names.kind ?? '').toLowerCase();
    if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
  }
  if (!spec.versions?.length && spec.version) spec.versions = [{ name: spec.version, served: true, storage: true }];
  if (!spec.version && spec.versions?.length) spec.version = spec.versions[0]!.name;
  spec.conversion ??= { strategy: 'None' };
  if (spec.conversion.strategy === 'Webhook' && !spec.conversion.conversionReviewVersions?.length)
    spec.conversion.conversionReviewVersions = ['v1beta1'];
  spec.preserveUnknownFields ??= true;
}

/** SetObjectDefaults_CustomResourceDefinition of v1beta1, in place. */
export function defaultCustomResourceDefinitionV1beta1(obj: CustomResourceDefinitionV1beta1): void {
  const spec = obj.spec;
  if (!spec) return;
  defaultSpec(spec);
  if (!obj.status?.storedVersions?.length) {
    const storage = (spec.versions ?? []).find((v) => v.storage);
    if (storage) (obj.status ??= {}).storedVersions = [storage.name];
  }
  const service = spec.conversion?.webhookClientConfig?.service;
  if (service) service.port ??= DEFAULT_WEBHOOK_PORT;
}
