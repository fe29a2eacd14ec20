/**
 * Webhook defaults per version (pkg/apis/admissionregistration/v1 and v1beta1 defaults.go):
 * v1: failurePolicy Fail, matchPolicy Equivalent, timeoutSeconds 10; v1beta1: failurePolicy
 * Ignore, matchPolicy Exact, sideEffects Unknown, timeoutSeconds 30, admissionReviewVersions
 * [v1beta1]; both: empty namespace and object selectors, reinvocationPolicy Never (mutating),
 * a rule's scope `*`, a service's port 443.
 */
import type { Webhook, WebhookConfiguration } from './webhook.schema.js';

/** SetDefaults_ValidatingWebhook / SetDefaults_MutatingWebhook and their parts, for `version`. */
export function defaultWebhooks(obj: WebhookConfiguration, version: 'v1' | 'v1beta1', mutating: boolean): void {
  const v1 = version === 'v1';
  for (const hook of obj.webhooks ?? []) {
    const h: Webhook = hook;
    h.failurePolicy ??= v1 ? 'Fail' : 'Ignore';
    h.matchPolicy ??= v1 ? 'Equivalent' : 'Exact';
    h.namespaceSelector ??= {};
    h.objectSelector ??= {};
    h.timeoutSeconds ??= v1 ? 10 : 30;
    if (!v1) {
      h.sideEffects ??= 'Unknown';
      h.admissionReviewVersions ??= ['v1beta1'];
    }
    if (mutating) h.reinvocationPolicy ??= 'Never';
    for (const rule of h.rules ?? []) rule.scope ??= '*';
    if (h.clientConfig?.service) h.clientConfig.service.port ??= 443;
  }
}
