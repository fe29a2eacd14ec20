/**
 * ValidatingWebhookConfiguration (upstream pkg/registry/admissionregistration/validatingwebhookconfiguration):
 * stored and validated here; the webhooks are called by admission/webhooks/. Rows, defaults and rules in
 * ../webhook-common/.
 */
import { validatingWebhookMessages } from '../webhook-common/webhook.protobuf.js';
import { webhookRows } from '../webhook-common/webhook.rows.js';
import { validatingWebhookConfigurationSchema } from '../webhook-common/webhook.schema.js';

export const [
  validatingWebhookConfigurations,
  validatingWebhookConfigurationsV1beta1,
  validatingWebhookConfigurationsCkV1beta1,
] = webhookRows({
  kind: 'ValidatingWebhookConfiguration',
  plural: 'validatingwebhookconfigurations',
  description:
    'ValidatingWebhookConfiguration describes the admission webhooks that may accept or reject an object, and the requests they are called for.',
  schema: validatingWebhookConfigurationSchema,
  mutating: false,
  messages: validatingWebhookMessages,
});
