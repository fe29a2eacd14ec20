/**
 * HorizontalPodAutoscaler: `horizontalpodautoscalers` and their `/status`, short name `hpa`,
 * category `all`, stored as autoscaling/v2 (Kubernetes 1.33's schema) and served also as
 * autoscaling/v1 (1.33) and autoscaling/v2beta1 (1.10) through their conversions.
 */
import { patchMetaOf } from '../../api/core/patch-meta.js';
import type { ResourceDefinition, VersionConversion } from '../../registry/types.js';
import type { z } from 'zod';
import { defineResource, statusSubresource } from '../define.js';
import { HPA_V1_MESSAGES, HPA_V2BETA1_MESSAGES, HPA_V2_MESSAGES } from './hpa.protobuf.js';
import { hpaSchema, type Hpa } from './hpa.schema.js';
import { hpaStrategy } from './hpa.strategy.js';
import { hpaPrinter, hpaPrinterThrough } from './hpa.table.js';
import { hpaV1Conversion } from './hpa-v1.conversion.js';
import { hpaV2beta1Conversion } from './hpa-v2beta1.conversion.js';
import { hpaV1Schema, hpaV2beta1Schema } from './hpa-versions.schema.js';

export const horizontalPodAutoscalers = defineResource({
  group: 'autoscaling',
  version: 'v2',
  kind: 'HorizontalPodAutoscaler',
  description:
    'HorizontalPodAutoscaler sets the replicas of a scalable resource from the metrics it observes, between minReplicas and maxReplicas.',
  plural: 'horizontalpodautoscalers',
  namespaced: true,
  shortNames: ['hpa'],
  categories: ['all'],
  schema: hpaSchema,
  printer: hpaPrinter,
  protobuf: HPA_V2_MESSAGES,
  subresources: [statusSubresource<Hpa>('HorizontalPodAutoscaler')],
  strategy: hpaStrategy,
});

function served(
  version: string,
  schema: z.ZodType,
  protobuf: ResourceDefinition['protobuf'],
  conversion: VersionConversion,
): ResourceDefinition {
  return {
    ...horizontalPodAutoscalers,
    version,
    schema,
    patchMeta: patchMetaOf(schema),
    protobuf,
    printer: hpaPrinterThrough(conversion),
    conversion,
  };
}

export const horizontalPodAutoscalersV1 = served('v1', hpaV1Schema, HPA_V1_MESSAGES, hpaV1Conversion);
export const horizontalPodAutoscalersV2beta1 = served(
  'v2beta1',
  hpaV2beta1Schema,
  HPA_V2BETA1_MESSAGES,
  hpaV2beta1Conversion,
);
