/** Pod fields: the PodSpec and the status of the spec. */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { list, mergedList, obj, oneOf, reqObj, reqStr, str, time } from '../../api/core/schema-kit.js';
import { containerStatus, podSpec } from '../../api/core/pod-spec.js';

export const podSchema = kindSchema({
  spec: podSpec.nullable().optional(),
  status: obj({
    conditions: mergedList(
      reqObj({
        lastProbeTime: time,
        lastTransitionTime: time,
        message: str,
        reason: str,
        status: reqStr,
        type: reqStr,
      }),
      { key: 'type' },
    ).describe('Current service state of the pod: PodScheduled, Initialized, Ready, ContainersReady.'),
    containerStatuses: list(containerStatus).describe(
      'One entry per container of the spec, as the node agent last reported it.',
    ),
    hostIP: str.describe('IP of the node the pod runs on; empty until it is scheduled.'),
    initContainerStatuses: list(containerStatus).describe(
      'One entry per init container, as the node agent last reported it.',
    ),
    message: str.describe('Human-readable message on why the pod is in this state.'),
    nominatedNodeName: str.describe('Node the scheduler expects the pod to run on once preemption has made room.'),
    phase: oneOf(['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown']).describe(
      'Where the pod is in its lifecycle: Pending, Running, Succeeded, Failed or Unknown.',
    ),
    podIP: str.describe('IP address allocated to the pod; empty until allocated.'),
    qosClass: oneOf(['Guaranteed', 'Burstable', 'BestEffort']).describe(
      "Quality of service class, from the containers' requests and limits: Guaranteed, Burstable or BestEffort.",
    ),
    reason: str.describe("Short CamelCase reason for the pod's state (for example Evicted)."),
    startTime: time.describe('When the node agent acknowledged the pod, before any image was pulled (RFC 3339).'),
  }),
});

/** A Pod as its schema describes it (for the pod strategy and the admission plugins of pods). */
export type Pod = KindObject<typeof podSchema>;
