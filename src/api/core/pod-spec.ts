/**
 * PodSpec and ContainerStatus as k8s.io/api core/v1 describes them at 1.33, with upstream's
 * patch tags beside each list and map (schema-kit's mergedList, atomic). Containers, security
 * contexts and scheduling parts live in pod-spec-container.ts, pod-spec-security.ts and
 * pod-spec-scheduling.ts; volumes in volumes.ts.
 */
import { z } from 'zod';
import {
  atomic,
  bool,
  int,
  list,
  localRef,
  mergedList,
  obj,
  oneOf,
  quantityMap,
  reqInt,
  reqMergedList,
  reqObj,
  reqStr,
  str,
  strList,
  strMap,
  time,
} from './schema-kit.js';
import { volume } from './volumes.js';
import { applyMap, container, ephemeralContainer, resourceRequirements } from './pod-spec-container.js';
import { podSecurityContext } from './pod-spec-security.js';
import { affinity, tolerations, topologySpreadConstraints } from './pod-spec-scheduling.js';

const containerStateFields = {
  running: obj({ startedAt: time }),
  terminated: obj({
    containerID: str,
    exitCode: reqInt,
    finishedAt: time,
    message: str,
    reason: str,
    signal: int,
    startedAt: time,
  }),
  waiting: obj({ message: str, reason: str }),
};

/** ContainerStatus (pod status). */
export const containerStatus = reqObj({
  allocatedResources: quantityMap.describe(
    'Resources the node allocated to the container (InPlacePodVerticalScalingAllocatedStatus: off in 1.33).',
  ),
  allocatedResourcesStatus: mergedList(
    reqObj({
      name: reqStr.describe('Name of the resource (a resource request name, or claim:<claim>/<request>).'),
      resources: applyMap(
        reqObj({
          health: str.describe('Health of the resource: Healthy, Unhealthy or Unknown.'),
          resourceID: reqStr.describe('Unique id of the resource.'),
        }),
        ['resourceID'],
      ).describe('Health of each resource.'),
    }),
    { key: 'name' },
  ).describe('Health of the resources allocated to the container (ResourceHealthStatus: off in 1.33).'),
  containerID: str.describe('Id of the container in the runtime: <type>://<id>.'),
  image: reqStr.describe('Image the container runs.'),
  imageID: reqStr.describe('Id of the image the container runs.'),
  lastState: obj(containerStateFields).describe("State of the container's previous run, if it restarted."),
  name: reqStr.describe('Name of the container, as in the pod spec.'),
  ready: z.boolean().describe('Whether the container passes its readiness probe.'),
  resources: resourceRequirements.describe('Requests and limits in effect for the running container.'),
  restartCount: reqInt.describe(
    'Number of times the container has been restarted (from dead containers not yet garbage collected).',
  ),
  started: bool.describe('Whether the container has finished its postStart hook and passed its startup probe.'),
  state: obj(containerStateFields).describe('Current state of the container: waiting, running or terminated.'),
  stopSignal: str.describe('Effective stop signal of the container (ContainerStopSignals: off in 1.33).'),
  user: obj({
    linux: obj({
      gid: reqInt.describe('Primary group id of the first process.'),
      supplementalGroups: list(z.number().int()).describe('Supplemental group ids of the first process.'),
      uid: reqInt.describe('User id of the first process.'),
    }).describe('Identity on Linux.'),
  }).describe("Identity the container's first process runs with."),
  volumeMounts: mergedList(
    reqObj({
      mountPath: reqStr.describe('Path of the mount in the container.'),
      name: reqStr.describe('Name of the volume mount.'),
      readOnly: bool.describe('Whether the mount is read-only.'),
      recursiveReadOnly: str.describe('Whether it is read-only recursively: Disabled or Enabled.'),
    }),
    { key: 'mountPath' },
  ).describe('Status of the volume mounts.'),
});

/** The PodSpec fields. */
export const podSpecShape = {
  activeDeadlineSeconds: int.describe(
    'Seconds the pod may be active (counted from its start) before the system actively tries to mark it failed and kill its containers.',
  ),
  affinity,
  automountServiceAccountToken: bool.describe('Whether a service account token is mounted automatically.'),
  containers: reqMergedList(container, { key: 'name' }).describe(
    'Containers of the pod. At least one; each name is unique in the pod. Cannot be added or removed after creation.',
  ),
  dnsConfig: obj({
    nameservers: strList,
    options: list(reqObj({ name: str, value: str })),
    searches: strList,
  }).describe('DNS parameters added to those generated from dnsPolicy.'),
  dnsPolicy: oneOf(['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']).describe(
    "How the pod's DNS is set up: ClusterFirstWithHostNet, ClusterFirst (the default), Default or None.",
  ),
  enableServiceLinks: bool.describe(
    "Whether the services of the pod's namespace are injected as environment variables, as Docker links (default true for pods).",
  ),
  ephemeralContainers: mergedList(ephemeralContainer, { key: 'name' }).describe(
    'Ephemeral containers run in the pod for debugging. Added through the pods/ephemeralcontainers subresource only; they cannot be changed or removed.',
  ),
  hostAliases: mergedList(reqObj({ hostnames: strList, ip: str }), { key: 'ip' }).describe(
    "Entries added to the pod's /etc/hosts.",
  ),
  hostIPC: bool.describe("Use the host's IPC namespace."),
  hostNetwork: bool.describe("Use the host's network namespace; the pod's ports then bind on the node."),
  hostPID: bool.describe("Use the host's PID namespace."),
  hostUsers: bool.describe(
    "Use the host's user namespace (the default); false runs the pod in its own user namespace.",
  ),
  hostname: str.describe('Hostname of the pod; the system-defined value (the pod name) when empty.'),
  imagePullSecrets: mergedList(atomic(reqObj(localRef)), { key: 'name' }).describe(
    'Secrets in the same namespace holding registry credentials for pulling the images.',
  ),
  initContainers: mergedList(container, { key: 'name' }).describe(
    'Containers run one after another, each to completion, before the app containers start; those with restartPolicy Always (sidecars) keep running beside them.',
  ),
  nodeName: str.describe(
    'Node the pod is bound to. Set by the scheduler (or by a binding); setting it directly skips scheduling.',
  ),
  nodeSelector: atomic(strMap).describe('Labels a node must carry for the pod to be scheduled there.'),
  os: obj({ name: reqStr.describe('Name of the operating system: linux or windows.') }).describe(
    'Operating system of the containers; some fields are refused for one OS or the other.',
  ),
  overhead: quantityMap.describe(
    'Resources the pod sandbox uses beyond its containers, set from its RuntimeClass by admission.',
  ),
  preemptionPolicy: str.describe(
    'Whether the pod may preempt pods of lower priority: PreemptLowerPriority (the default) or Never.',
  ),
  priority: int.describe('Priority value, filled from priorityClassName by admission.'),
  priorityClassName: str.describe("Name of the pod's priority class."),
  readinessGates: list(
    reqObj({ conditionType: reqStr.describe("Type of a condition in the pod's condition list.") }),
  ).describe('Further conditions that must be True for the pod to be ready.'),
  resourceClaims: mergedList(
    reqObj({
      name: reqStr.describe('Name of the claim inside the pod (a DNS label).'),
      resourceClaimName: str.describe('Name of a ResourceClaim in the namespace of the pod.'),
      resourceClaimTemplateName: str.describe('Name of a ResourceClaimTemplate a claim is made from for the pod.'),
    }),
    { key: 'name', retainKeys: true },
  ).describe('Resource claims the pod needs (DynamicResourceAllocation: off in 1.33).'),
  resources: resourceRequirements.describe('Resources of the whole pod (PodLevelResources: off in 1.33).'),
  restartPolicy: oneOf(['Always', 'OnFailure', 'Never']).describe(
    'Restart policy of every container: Always (the default), OnFailure or Never.',
  ),
  runtimeClassName: str.describe('Name of the RuntimeClass (node.k8s.io) the pod runs with.'),
  schedulerName: str.describe('Scheduler that places the pod; the default scheduler when empty.'),
  schedulingGates: mergedList(reqObj({ name: reqStr.describe('Name of the gate.') }), { key: 'name' }).describe(
    'Gates that keep the pod from being scheduled while any is present; they can only be removed.',
  ),
  securityContext: podSecurityContext,
  serviceAccount: str.describe('Deprecated alias of serviceAccountName.'),
  serviceAccountName: str.describe('Service account the pod runs as.'),
  setHostnameAsFQDN: bool.describe("Set the pod's hostname to its fully qualified domain name (default false)."),
  shareProcessNamespace: bool.describe('Share one process namespace between the containers of the pod.'),
  subdomain: str.describe(
    "Subdomain of the pod's hostname: <hostname>.<subdomain>.<namespace>.svc.<cluster domain>. No domain when empty.",
  ),
  terminationGracePeriodSeconds: int.describe(
    'Seconds the pod is given to stop gracefully before it is killed (default 30; 0 means at once).',
  ),
  tolerations,
  topologySpreadConstraints,
  volumes: mergedList(volume, { key: 'name', retainKeys: true }).describe("Volumes the pod's containers may mount."),
};

export const podSpec = reqObj(podSpecShape);
