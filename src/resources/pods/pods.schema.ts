/** Pod fields: the PodSpec and the status of the spec. */
import { kindSchema } from '../../api/meta-schema.js';
import { list, obj, oneOf, reqObj, reqStr, str, time } from '../../api/core/schema-kit.js';
import { containerStatus, podSpec } from '../../api/core/pod-spec.js';

export const podSchema = kindSchema({
  spec: podSpec.nullable().optional(),
  status: obj({
    conditions: list(reqObj({ lastProbeTime: time, lastTransitionTime: time, message: str, reason: str, status: reqStr, type: reqStr })),
    containerStatuses: list(containerStatus),
    hostIP: str,
    initContainerStatuses: list(containerStatus),
    message: str,
    nominatedNodeName: str,
    phase: oneOf(['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown']),
    podIP: str,
    qosClass: oneOf(['Guaranteed', 'Burstable', 'BestEffort']),
    reason: str,
    startTime: time,
  }),
});
