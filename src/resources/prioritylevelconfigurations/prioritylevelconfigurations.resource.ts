/**
 * PriorityLevelConfiguration (flowcontrol.apiserver.k8s.io/v1, the only version upstream 1.33
 * serves; pkg/registry/flowcontrol/prioritylevelconfiguration): cluster-scoped, no short names
 * or categories, with `/status`. Create clears the status and sets generation 1; an update
 * that changes the spec bumps the generation and keeps the stored status; `/status` writes
 * only the status. The mandatory `exempt` and `catch-all` levels may not change their spec
 * (except `exempt`'s `spec.exempt`) and are put back when deleted, as the suggested ones are,
 * by controllers/flowcontrol-bootstrap.ts.
 */
import { defineResource } from '../define.js';
import { statusAndGeneration } from '../flowcontrol-common/generation.js';
import { FLOWCONTROL_GROUP } from '../flowcontrol-common/names.js';
import { conditionsStatusSubresource } from '../flowcontrol-common/status.js';
import { defaultPriorityLevelConfiguration } from './prioritylevelconfigurations.defaults.js';
import { priorityLevelConfigurationMessages } from './prioritylevelconfigurations.protobuf.js';
import {
  priorityLevelConfigurationSchema,
  type PriorityLevelConfiguration,
} from './prioritylevelconfigurations.schema.js';
import { priorityLevelConfigurationPrinter } from './prioritylevelconfigurations.table.js';
import {
  validatePriorityLevelConfiguration,
  validatePriorityLevelConfigurationUpdate,
} from './prioritylevelconfigurations.validation.js';

export const priorityLevelConfigurations = defineResource({
  group: FLOWCONTROL_GROUP,
  version: 'v1',
  kind: 'PriorityLevelConfiguration',
  description:
    "PriorityLevelConfiguration is a priority level of API Priority and Fairness: whether its requests are limited, its share of the server's concurrency and how it queues what exceeds it.",
  plural: 'prioritylevelconfigurations',
  namespaced: false,
  schema: priorityLevelConfigurationSchema,
  printer: priorityLevelConfigurationPrinter,
  protobuf: priorityLevelConfigurationMessages,
  subresources: [conditionsStatusSubresource<PriorityLevelConfiguration>('PriorityLevelConfiguration')],
  strategy: {
    ...statusAndGeneration,
    defaults: defaultPriorityLevelConfiguration,
    validate: validatePriorityLevelConfiguration,
    validateUpdate: validatePriorityLevelConfigurationUpdate,
  },
});
