/** LimitRange (core/v1). */
import { limitRangeSchema } from './limitranges.schema.js';
import { defineResource } from '../define.js';
import { limitRangeMessages } from './limitranges.protobuf.js';
import { validateLimitRange } from './limitranges.validation.js';

export const limitRanges = defineResource({
  kind: 'LimitRange',
  description: 'LimitRange sets default, minimum and maximum resource use per kind of object in a namespace.',
  protobuf: limitRangeMessages,
  plural: 'limitranges',
  namespaced: true,
  schema: limitRangeSchema,
  shortNames: ['limits'],
  strategy: {
    defaults(obj) {
      // Upstream SetDefaults_LimitRangeItem: for containers, default <- max, defaultRequest <- default, then min.
      for (const item of ((obj.spec as { limits?: Record<string, any>[] } | undefined)?.limits ?? [])) {
        if (item.type !== 'Container') continue;
        item.default = { ...(item.max ?? {}), ...(item.default ?? {}) };
        item.defaultRequest = { ...(item.min ?? {}), ...item.default, ...(item.defaultRequest ?? {}) };
        if (!Object.keys(item.default).length) delete item.default;
        if (!Object.keys(item.defaultRequest).length) delete item.defaultRequest;
      }
    },
    validate: validateLimitRange,
    // Upstream's update runs the same rules (limitrange strategy ValidateUpdate).
    validateUpdate: (obj) => validateLimitRange(obj),
  },
});
