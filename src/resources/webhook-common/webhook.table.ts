/** `kubectl get validatingwebhookconfigurations|mutatingwebhookconfigurations` columns (upstream printers.go): NAME WEBHOOKS AGE. */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { WebhookConfiguration } from './webhook.schema.js';

export const webhookConfigurationPrinter: TablePrinter<WebhookConfiguration> = {
  columns: [NAME_COLUMN, column('Webhooks', 'integer', 'Webhooks indicates the number of webhooks.'), AGE_COLUMN],
  cells: (obj, now) => [obj.metadata.name, (obj.webhooks ?? []).length, age(obj, now)],
};
