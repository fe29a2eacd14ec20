/** ControllerRevision fields (k8s.io/api apps/v1 types.go; apps/v1beta2 and apps/v1beta1 are the same). */
import { z } from 'zod';
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { int } from '../../api/core/schema-kit.js';

export const controllerRevisionSchema = kindSchema({
  data: z.unknown().optional().describe('The serialized state (a JSON object); it cannot change once created.'),
  revision: int.describe('Revision of the state held in data.'),
});

/** A ControllerRevision as its schema describes it. */
export type ControllerRevision = KindObject<typeof controllerRevisionSchema>;
