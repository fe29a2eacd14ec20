/**
 * SecurityContextConstraints: one storage, served twice — under the core group (deprecated)
 * and under `security.platform.io/v1`. Top-level fields, no spec (openshift/api security/v1).
 */
import { securityContextConstraintsPrinter } from './securitycontextconstraints.table.js';
import {
  securityContextConstraintsSchema,
  type SecurityContextConstraints,
} from './securitycontextconstraints.schema.js';
import type { Strategy } from '../../registry/types.js';
import { defineResource } from '../define.js';
import { validatePathSegmentName } from '../../api/names.js';
import { securityContextConstraintsMessages } from './securitycontextconstraints.protobuf.js';
import {
  defaultSecurityContextConstraints,
  validateSecurityContextConstraints,
} from './securitycontextconstraints.validation.js';

const strategy: Strategy<SecurityContextConstraints> = {
  defaults: defaultSecurityContextConstraints,
  validate: validateSecurityContextConstraints,
  // Upstream ValidateSecurityContextConstraintsUpdate: metadata, then the same rules.
  validateUpdate: (obj) => validateSecurityContextConstraints(obj),
};

const common = {
  kind: 'SecurityContextConstraints',
  description:
    'SecurityContextConstraints govern which security settings a pod may request, and which users and groups may use them.',
  protobuf: securityContextConstraintsMessages,
  plural: 'securitycontextconstraints',
  namespaced: false,
  shortNames: ['scc'],
  storagePrefix: 'securitycontextconstraints',
  deleteReturnsObject: true,
  validateName: validatePathSegmentName,
  schema: securityContextConstraintsSchema,
  printer: securityContextConstraintsPrinter,
  strategy,
} as const;

export const securityContextConstraints = defineResource({ ...common });

export const securityContextConstraintsV1 = defineResource({ ...common, group: 'security.platform.io' });
