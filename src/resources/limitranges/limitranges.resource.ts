/** LimitRange (core/v1). */
import { defineResource } from '../define.js';

export const limitRanges = defineResource({
  kind: 'LimitRange',
  plural: 'limitranges',
  namespaced: true,
  shortNames: ['limits'],
});
