/**
 * FlowSchema defaults of flowcontrol.apiserver.k8s.io/v1 (k8s.io/kubernetes
 * pkg/apis/flowcontrol/v1 defaults.go SetDefaults_FlowSchemaSpec): a matchingPrecedence of 0
 * or none becomes 1000. The spec is a Go struct, so an object without one gets one.
 */
import type { FlowSchema } from './flowschemas.schema.js';

/** The precedence of a schema that names none. */
export const DEFAULT_MATCHING_PRECEDENCE = 1000;

/** SetObjectDefaults_FlowSchema, in place. */
export function defaultFlowSchema(obj: FlowSchema): void {
  const spec = (obj.spec ??= { priorityLevelConfiguration: { name: '' } });
  if (!spec.matchingPrecedence) spec.matchingPrecedence = DEFAULT_MATCHING_PRECEDENCE;
}
