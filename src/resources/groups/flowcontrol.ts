/**
 * Rows of the resource table for API Priority and Fairness (flowcontrol.apiserver.k8s.io/v1,
 * the only version upstream 1.33 serves): flowschemas and prioritylevelconfigurations, each
 * kind in its own folder under src/resources/.
 */
import type { ResourceDefinition } from '../../registry/types.js';
import { flowSchemas } from '../flowschemas/flowschemas.resource.js';
import { priorityLevelConfigurations } from '../prioritylevelconfigurations/prioritylevelconfigurations.resource.js';

export const ROWS: readonly ResourceDefinition[] = [flowSchemas, priorityLevelConfigurations];
