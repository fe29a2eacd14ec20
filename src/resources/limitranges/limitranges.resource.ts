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
      for (const item of obj.spec?.limits ?? []) {
        if (item.type !== 'Container') continue;
        const limit = { ...(item.max ?? {}), ...(item.default ?? {}) };
        const request = { ...(item.min ?? {}), ...limit, ...(item.defaultRequest ?? {}) };
        if (Object.keys(limit).length) item.default = limit;
        else delete item.default;
        if (Object.keys(request).length) item.defaultRequest = request;
        else delete item.defaultRequest;
      }
    },
    validate: validateLimitRange,
    // Upstream's update runs the same rules (limitrange strategy ValidateUpdate).
    validateUpdate: (obj) => validateLimitRange(obj),
  },
});
