/** PodTemplate fields. */
import type { KindObject } from '../../registry/types.js';
import { kindSchema, strictObjectMeta } from '../../api/meta-schema.js';
import { obj } from '../../api/core/schema-kit.js';
import { podSpec } from '../../api/core/pod-spec.js';

export const podTemplateSchema = kindSchema({
  template: obj({ metadata: strictObjectMeta, spec: podSpec.nullable().optional() }).describe(
    'The pod to create: its metadata and spec.',
  ),
});

/** A PodTemplate as its schema describes it (for its strategy and printer). */
export type PodTemplate = KindObject<typeof podTemplateSchema>;
