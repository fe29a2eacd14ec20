/**
 * MutatingWebhookConfiguration (upstream pkg/registry/admissionregistration/mutatingwebhookconfiguration):
 * stored and validated here; the webhooks are called by admission/webhooks/. Rows, defaults and rules in
 * ../webhook-common/.
 */
import { mutatingWebhookMessages } from '../webhook-common/webhook.protobuf.js';
import { webhookRows } from '../webhook-common/webhook.rows.js';
import { mutatingWebhookConfigurationSchema } from '../webhook-common/webhook.schema.js';

export const [
  mutatingWebhookConfigurations,
  mutatingWebhookConfigurationsV1beta1,
  mutatingWebhookConfigurationsCkV1beta1,
] = webhookRows({
  kind: 'MutatingWebhookConfiguration',
  plural: 'mutatingwebhookconfigurations',
  description:
    'MutatingWebhookConfiguration describes the admission webhooks that may change an object, or accept or reject it, and the requests they are called for.',
  schema: mutatingWebhookConfigurationSchema,
  mutating: true,
  messages: mutatingWebhookMessages,
});
