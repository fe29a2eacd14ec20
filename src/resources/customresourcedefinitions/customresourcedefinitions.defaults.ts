/**
 * CustomResourceDefinition defaults of apiextensions.k8s.io/v1 (k8s.io/apiextensions-apiserver
 * pkg/apis/apiextensions/v1 defaults.go and zz_generated.defaults.go, 1.33):
 * SetDefaults_CustomResourceDefinitionSpec (`names.singular` = the lower-cased kind,
 * `names.listKind` = kind + "List" when there is a kind, `conversion` = `{strategy: None}`),
 * SetDefaults_CustomResourceDefinition (no stored versions: the storage version) and
 * SetDefaults_ServiceReference (a conversion webhook service's port 443).
 */
import type { CustomResourceDefinition } from './customresourcedefinitions.schema.js';

/** The port of a conversion webhook's service that names none. */
export const DEFAULT_WEBHOOK_PORT = 443;

/** SetObjectDefaults_CustomResourceDefinition, in place. */
export function defaultCustomResourceDefinition(obj: CustomResourceDefinition): void {
  const spec = obj.spec;
  if (!spec) return;
  const names = spec.names;
  if (names) {
    if (!names.singular) names.singular = (names.kind ?? '').toLowerCase();
    if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
  }
  spec.conversion ??= { strategy: 'None' };
  const service = spec.conversion.webhook?.clientConfig?.service;
  if (service) service.port ??= DEFAULT_WEBHOOK_PORT;
  if (!obj.status?.storedVersions?.length) {
    const storage = (spec.versions ?? []).find((v) => v.storage);
    if (storage) (obj.status ??= {}).storedVersions = [storage.name];
  }
}
