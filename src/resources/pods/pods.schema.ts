/** Pod fields: the PodSpec and the status (k8s.io/api core/v1 PodStatus at 1.33). */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { declared } from '../../api/core/patch-info.js';
import { int, list, mergedList, obj, oneOf, reqObj, reqStr, str, time } from '../../api/core/schema-kit.js';
import { containerStatus, podSpec } from '../../api/core/pod-spec.js';

const ip = (what: string) => reqObj({ ip: reqStr.describe(`IP address of the ${what}.`) });

export const podSchema = kindSchema({
  spec: podSpec.nullable().optional(),
  status: obj({
    conditions: mergedList(
      reqObj({
        lastProbeTime: time,
        lastTransitionTime: time,
        message: str,
        observedGeneration: int.describe(
          'Generation the condition was set from (PodObservedGenerationTracking: off in 1.33, dropped).',
        ),
        reason: str,
        status: reqStr,
        type: reqStr,
      }),
      { key: 'type' },
    ).describe('Current service state of the pod: PodScheduled, Initialized, Ready, ContainersReady, ...'),
    containerStatuses: list(containerStatus).describe(
      'One entry per container of the spec, as the node agent last reported it.',
    ),
    ephemeralContainerStatuses: list(containerStatus).describe(
      'One entry per ephemeral container that has run in the pod, as the node agent last reported it.',
    ),
    hostIP: str.describe('IP of the node the pod runs on; empty until it is scheduled.'),
    // patchStrategy merge by ip, but an atomic list for server-side apply (upstream's tags).
    hostIPs: declared(list(ip('node')), { merge: { key: 'ip' }, listType: 'atomic' }).describe(
      'IPs of the node the pod runs on (one per IP family); the first is hostIP.',
    ),
    initContainerStatuses: list(containerStatus).describe(
      'One entry per init container, as the node agent last reported it.',
    ),
    message: str.describe('Human-readable message on why the pod is in this state.'),
    nominatedNodeName: str.describe('Node the scheduler expects the pod to run on once preemption has made room.'),
    observedGeneration: int.describe(
      'Generation the status was set from (PodObservedGenerationTracking: off in 1.33, dropped).',
    ),
    phase: oneOf(['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown']).describe(
      'Where the pod is in its lifecycle: Pending, Running, Succeeded, Failed or Unknown.',
    ),
    podIP: str.describe('IP address allocated to the pod; empty until allocated.'),
    podIPs: mergedList(ip('pod'), { key: 'ip' }).describe(
      'IPs allocated to the pod (one per IP family); the first is podIP.',
    ),
    qosClass: oneOf(['Guaranteed', 'Burstable', 'BestEffort']).describe(
      "Quality of service class, from the containers' requests and limits: Guaranteed, Burstable or BestEffort.",
    ),
    reason: str.describe("Short CamelCase reason for the pod's state (for example Evicted)."),
    resize: str.describe(
      'Deprecated (1.33 reports resizes as the PodResizePending and PodResizeInProgress conditions): Proposed, InProgress, Deferred or Infeasible.',
    ),
    resourceClaimStatuses: mergedList(
      reqObj({
        name: reqStr.describe('Name of the entry in spec.resourceClaims.'),
        resourceClaimName: str.describe('Name of the ResourceClaim made for the pod.'),
      }),
      { key: 'name', retainKeys: true },
    ).describe('Claims made for the pod from templates (DynamicResourceAllocation: off in 1.33, dropped).'),
    startTime: time.describe('When the node agent acknowledged the pod, before any image was pulled (RFC 3339).'),
  }),
});

/** A Pod as its schema describes it (for the pod strategy and the admission plugins of pods). */
export type Pod = KindObject<typeof podSchema>;
