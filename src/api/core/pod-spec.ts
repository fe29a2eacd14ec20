/**
 * PodSpec and its parts (Container, Probe, Handler, affinity, ...), as the spec lists them, with
 * upstream's patch tags beside each list and map (schema-kit's mergedList, atomic).
 */
import { z } from 'zod';
import {
  atomic,
  bool,
  described,
  int,
  intOrString,
  protocol,
  labelSelector,
  list,
  localRef,
  mergedList,
  obj,
  oneOf,
  quantityMap,
  reqInt,
  reqList,
  reqMergedList,
  reqObj,
  reqStr,
  str,
  strList,
  strMap,
  time,
} from './schema-kit.js';
import { fieldRef, resourceFieldRef, volume } from './volumes.js';

const seLinuxOptions = obj(
  described(
    { level: str, role: str, type: str, user: str },
    {
      level: 'SELinux level label.',
      role: 'SELinux role label.',
      type: 'SELinux type label.',
      user: 'SELinux user label.',
    },
  ),
).describe('SELinux context applied to the container(s); a random one is chosen by the runtime when unset.');
const handlerFields = {
  exec: obj({
    command: strList.describe('Command run inside the container, without a shell; exit status 0 is success.'),
  }).describe('Run a command in the container.'),
  httpGet: obj(
    described(
      {
        host: str,
        httpHeaders: list(reqObj({ name: reqStr, value: reqStr })),
        path: str,
        port: intOrString.unwrap().unwrap(),
        scheme: oneOf(['HTTP', 'HTTPS']),
      },
      {
        host: "Host name to connect to; the pod's IP when empty.",
        httpHeaders: 'Extra request headers.',
        path: 'Path of the HTTP request.',
        port: 'Port number or name to connect to.',
        scheme: 'HTTP (the default) or HTTPS.',
      },
    ),
  ).describe('An HTTP GET request; a status from 200 to 399 is success.'),
  tcpSocket: obj(
    described(
      { host: str, port: intOrString.unwrap().unwrap() },
      { host: "Host name to connect to; the pod's IP when empty.", port: 'Port number or name to connect to.' },
    ),
  ).describe('A TCP connection; success when it opens.'),
};
const handler = obj(handlerFields);
const probe = obj({
  ...handlerFields,
  failureThreshold: int.describe('Consecutive failures after which the probe counts as failed (default 3, minimum 1).'),
  initialDelaySeconds: int.describe('Seconds after the container started before the first probe.'),
  periodSeconds: int.describe('Seconds between probes (default 10, minimum 1).'),
  successThreshold: int.describe(
    'Consecutive successes after a failure for the probe to count as successful again (default 1; must be 1 for liveness).',
  ),
  timeoutSeconds: int.describe('Seconds after which a probe times out (default 1, minimum 1).'),
});

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
  containerID: str.describe('Id of the container in the runtime: <type>://<id>.'),
  image: reqStr.describe('Image the container runs.'),
  imageID: reqStr.describe('Id of the image the container runs.'),
  lastState: obj(containerStateFields).describe("State of the container's previous run, if it restarted."),
  name: reqStr.describe('Name of the container, as in the pod spec.'),
  ready: z.boolean().describe('Whether the container passes its readiness probe.'),
  restartCount: reqInt.describe(
    'Number of times the container has been restarted (from dead containers not yet garbage collected).',
  ),
  state: obj(containerStateFields).describe('Current state of the container: waiting, running or terminated.'),
});

const container = reqObj({
  args: strList.describe(
    "Arguments passed to the entrypoint. Replaces the image's CMD; $(VAR) references to the container's environment are expanded.",
  ),
  command: strList.describe(
    "Entrypoint array, run without a shell. Replaces the image's ENTRYPOINT; $(VAR) references to the container's environment are expanded.",
  ),
  env: mergedList(
    reqObj({
      name: reqStr.describe('Name of the environment variable (a C identifier).'),
      value: str.describe('Value, with $(VAR) references to earlier variables expanded. Defaults to "".'),
      valueFrom: obj({
        configMapKeyRef: atomic(obj({ key: reqStr, name: str, optional: bool })),
        fieldRef: atomic(fieldRef),
        resourceFieldRef: atomic(resourceFieldRef),
        secretKeyRef: atomic(obj({ key: reqStr, name: str, optional: bool })),
      }),
    }),
    { key: 'name' },
  ).describe('Environment variables to set in the container.'),
  envFrom: list(
    reqObj({
      configMapRef: obj({ name: str, optional: bool }),
      prefix: str,
      secretRef: obj({ name: str, optional: bool }),
    }),
  ).describe(
    'Sources whose keys all become environment variables (ConfigMaps and Secrets). Keys that are not valid variable names are skipped; env entries win over these.',
  ),
  image: str.describe('Container image name, as the container runtime pulls it (for example nginx:1.25).'),
  imagePullPolicy: oneOf(['Always', 'IfNotPresent', 'Never']).describe(
    'When to pull the image: Always, Never or IfNotPresent. Defaults to Always for the :latest tag (or no tag), otherwise IfNotPresent.',
  ),
  lifecycle: obj({ postStart: handler, preStop: handler }).describe(
    'Actions the kubelet runs right after the container starts (postStart) and before it is stopped (preStop).',
  ),
  livenessProbe: probe.describe('Periodic check of container liveness; the container is restarted when it fails.'),
  name: reqStr.describe('Name of the container, a DNS label unique within the pod. Cannot be updated.'),
  // Upstream keys container ports by containerPort and protocol (protocol defaults to TCP).
  ports: mergedList(
    reqObj({
      containerPort: reqInt.describe("Port number on the pod's IP address (1-65535)."),
      hostIP: str.describe('Host IP to bind the host port to.'),
      hostPort: int.describe('Port number on the host (1-65535). Most containers do not need one.'),
      name: str.describe('Name of the port (an IANA service name), unique in the pod; services can refer to it.'),
      protocol: protocol.describe('Protocol of the port: TCP (the default) or UDP.'),
    }),
    { key: 'containerPort', keys: ['containerPort', 'protocol'], defaults: { protocol: 'TCP' } },
  ).describe('Ports to expose from the container. Informational: a port not listed here may still be reached.'),
  readinessProbe: probe.describe(
    'Periodic check of container readiness; the pod is removed from service endpoints while it fails.',
  ),
  resources: obj({
    limits: quantityMap.describe('Maximum amount of each compute resource the container may use.'),
    requests: quantityMap.describe(
      'Minimum amount of each compute resource the container needs; scheduling uses these. Default to the limits when omitted.',
    ),
  }).describe('Compute resources (cpu, memory) the container requests and is limited to.'),
  securityContext: obj({
    allowPrivilegeEscalation: bool.describe(
      'Whether a process may gain more privileges than its parent (no_new_privs off). Always true when privileged or with CAP_SYS_ADMIN.',
    ),
    capabilities: obj({
      add: strList.describe('Capabilities to add.'),
      drop: strList.describe('Capabilities to drop.'),
    }).describe('POSIX capabilities to add to or drop from the runtime default set.'),
    privileged: bool.describe('Run the container privileged: its processes are root on the host (default false).'),
    readOnlyRootFilesystem: bool.describe("Mount the container's root filesystem read-only (default false)."),
    runAsNonRoot: bool.describe('Refuse to start the container if its image would run as uid 0.'),
    runAsUser: int.describe("User id the entrypoint runs as; the image's default when unset."),
    seLinuxOptions,
  }).describe("Security options the container runs with; they override the pod's securityContext."),
  stdin: bool.describe(
    'Whether the container allocates a buffer for stdin. Without it, reads from stdin always return EOF.',
  ),
  stdinOnce: bool.describe('Whether the stdin channel closes after the first attach session ends.'),
  terminationMessagePath: str.describe(
    "File the container's termination message is read from, mounted into the container. Defaults to /dev/termination-log.",
  ),
  terminationMessagePolicy: oneOf(['File', 'FallbackToLogsOnError']).describe(
    'How the termination message is filled: File (the default) or FallbackToLogsOnError (the log tail when the file is empty and the container failed).',
  ),
  tty: bool.describe('Whether the container allocates a TTY (needs stdin too).'),
  volumeDevices: mergedList(reqObj({ devicePath: reqStr, name: reqStr }), { key: 'devicePath' }).describe(
    "Block devices from the pod's volumes to expose to the container.",
  ),
  volumeMounts: mergedList(
    reqObj({
      mountPath: reqStr.describe("Path in the container at which the volume is mounted; must not contain ':'."),
      mountPropagation: str.describe(
        'How mounts propagate between host and container: None (the default), HostToContainer or Bidirectional.',
      ),
      name: reqStr.describe("Name of one of the pod's volumes."),
      readOnly: bool.describe('Mount read-only (default false).'),
      subPath: str.describe('Path within the volume to mount instead of its root.'),
    }),
    { key: 'mountPath' },
  ).describe("Pod volumes to mount into the container's filesystem."),
  workingDir: str.describe("Working directory of the container; the image's default when empty."),
});

const nodeSelectorRequirement = reqObj(
  described(
    {
      key: reqStr,
      operator: oneOf(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt']).unwrap().unwrap(),
      values: strList,
    },
    {
      key: 'Label key the requirement applies to.',
      operator: 'In, NotIn, Exists, DoesNotExist, Gt or Lt.',
      values: 'Values for In and NotIn (non-empty), one integer for Gt and Lt, none for Exists and DoesNotExist.',
    },
  ),
);
const nodeSelectorTerm = reqObj({
  matchExpressions: list(nodeSelectorRequirement).describe('Requirements on node labels, all of which must hold.'),
});
const podAffinityTerm = reqObj(
  described(
    { labelSelector, namespaces: strList, topologyKey: str },
    {
      labelSelector: 'Label query over the pods this term is about.',
      namespaces: "Namespaces the label query applies to; the pod's own namespace when empty.",
      topologyKey:
        'Node label whose value defines co-location: pods are together when their nodes have the same value (for example kubernetes.io/hostname).',
    },
  ),
);
const weighted =
  "Weight (1-100) added to a node's score when the term holds; preferred terms guide, they do not require.";
const podAffinity = obj({
  preferredDuringSchedulingIgnoredDuringExecution: list(
    reqObj({ podAffinityTerm, weight: reqInt.describe(weighted) }),
  ).describe('Terms the scheduler prefers to satisfy, by weight.'),
  requiredDuringSchedulingIgnoredDuringExecution: list(podAffinityTerm).describe(
    'Terms that must hold when the pod is scheduled (not re-checked afterwards).',
  ),
});

/** The PodSpec fields. */
export const podSpecShape = {
  activeDeadlineSeconds: int.describe(
    'Seconds the pod may be active (counted from its start) before the system actively tries to mark it failed and kill its containers.',
  ),
  affinity: obj({
    nodeAffinity: obj({
      preferredDuringSchedulingIgnoredDuringExecution: list(
        reqObj({ preference: nodeSelectorTerm, weight: reqInt.describe(weighted) }),
      ).describe('Node selector terms the scheduler prefers to satisfy, by weight.'),
      requiredDuringSchedulingIgnoredDuringExecution: atomic(
        obj({ nodeSelectorTerms: reqList(nodeSelectorTerm).describe('Terms of which at least one must hold.') }),
      ).describe('Node requirements that must hold when the pod is scheduled (not re-checked afterwards).'),
    }).describe('Rules on the labels of the nodes the pod may be scheduled on.'),
    podAffinity: podAffinity.describe('Rules co-locating the pod with other pods (same topology domain).'),
    podAntiAffinity: podAffinity.describe('Rules keeping the pod away from other pods (different topology domains).'),
  }).describe('Scheduling constraints relating the pod to nodes and to other pods.'),
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
  hostAliases: mergedList(reqObj({ hostnames: strList, ip: str }), { key: 'ip' }).describe(
    "Entries added to the pod's /etc/hosts.",
  ),
  hostIPC: bool.describe("Use the host's IPC namespace."),
  hostNetwork: bool.describe("Use the host's network namespace; the pod's ports then bind on the node."),
  hostPID: bool.describe("Use the host's PID namespace."),
  hostname: str.describe('Hostname of the pod; the system-defined value (the pod name) when empty.'),
  imagePullSecrets: mergedList(atomic(reqObj(localRef)), { key: 'name' }).describe(
    'Secrets in the same namespace holding registry credentials for pulling the images.',
  ),
  initContainers: mergedList(container, { key: 'name' }).describe(
    'Containers run one after another, each to completion, before the app containers start.',
  ),
  nodeName: str.describe(
    'Node the pod is bound to. Set by the scheduler (or by a binding); setting it directly skips scheduling.',
  ),
  nodeSelector: atomic(strMap).describe('Labels a node must carry for the pod to be scheduled there.'),
  priority: int.describe('Priority value, filled from priorityClassName by admission.'),
  priorityClassName: str.describe("Name of the pod's priority class."),
  restartPolicy: oneOf(['Always', 'OnFailure', 'Never']).describe(
    'Restart policy of every container: Always (the default), OnFailure or Never.',
  ),
  schedulerName: str.describe('Scheduler that places the pod; the default scheduler when empty.'),
  securityContext: obj({
    fsGroup: int.describe(
      'Group id that owns supporting volumes and is added to every container; new files get it too.',
    ),
    runAsNonRoot: bool.describe('Refuse to start containers whose image would run as uid 0.'),
    runAsUser: int.describe("User id containers' entrypoints run as, unless a container sets its own."),
    seLinuxOptions,
    supplementalGroups: list(z.number().int()).describe(
      "Group ids added to each container's first process, besides its primary group.",
    ),
  }).describe('Pod-level security attributes and common container settings.'),
  serviceAccount: str.describe('Deprecated alias of serviceAccountName.'),
  serviceAccountName: str.describe('Service account the pod runs as.'),
  subdomain: str.describe(
    "Subdomain of the pod's hostname: <hostname>.<subdomain>.<namespace>.svc.<cluster domain>. No domain when empty.",
  ),
  terminationGracePeriodSeconds: int.describe(
    'Seconds the pod is given to stop gracefully before it is killed (default 30; 0 means at once).',
  ),
  tolerations: list(
    reqObj({
      effect: oneOf(['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
      key: str,
      operator: oneOf(['Exists', 'Equal']),
      tolerationSeconds: int,
      value: str,
    }),
  ).describe('Taints the pod tolerates.'),
  volumes: mergedList(volume, { key: 'name', retainKeys: true }).describe("Volumes the pod's containers may mount."),
};

export const podSpec = reqObj(podSpecShape);
