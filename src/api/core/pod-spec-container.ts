/**
 * Container, EphemeralContainer and their parts (probes, lifecycle handlers, ports, env,
 * mounts, resources), with upstream's patch tags beside each list and map (schema-kit's
 * mergedList, atomic) and the fields upstream has added up to 1.33 (startupProbe, grpc and sleep
 * actions, probe terminationGracePeriodSeconds, restartPolicy for sidecars, resizePolicy,
 * resource claims, subPathExpr, recursiveReadOnly, stopSignal).
 */
import { z } from 'zod';
import { declared } from './patch-info.js';
import {
  atomic,
  bool,
  described,
  int,
  intOrString,
  list,
  mergedList,
  obj,
  oneOf,
  portProtocol,
  quantityMap,
  reqInt,
  reqObj,
  reqStr,
  str,
  strList,
} from './schema-kit.js';
import { containerSecurityContext } from './pod-spec-security.js';
import { fieldRef, resourceFieldRef } from './volumes.js';

/** A list server-side apply merges by `keys` that strategic merge patch replaces (`+listType=map` only). */
export const applyMap = <T extends z.ZodType>(item: T, keys: readonly string[]) =>
  declared(list(item), { listType: 'map', listMapKeys: keys });

const exec = obj({
  command: strList.describe('Command run inside the container, without a shell; exit status 0 is success.'),
}).describe('Run a command in the container.');
const httpGet = obj(
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
).describe('An HTTP GET request; a status from 200 to 399 is success.');
const tcpSocket = obj(
  described(
    { host: str, port: intOrString.unwrap().unwrap() },
    { host: "Host name to connect to; the pod's IP when empty.", port: 'Port number or name to connect to.' },
  ),
).describe('A TCP connection; success when it opens.');
const grpc = obj({
  port: reqInt.describe('Port number of the gRPC service (1-65535).'),
  service: str.describe('Service name put in the gRPC HealthCheckRequest; defaults to "" (the server\'s default).'),
}).describe('A gRPC health check (grpc.health.v1); SERVING is success.');
const sleep = obj({ seconds: reqInt.describe('Seconds to sleep.') }).describe(
  'Sleep for a while (at most the pod termination grace period).',
);

/** LifecycleHandler: one action run on a lifecycle event. */
const lifecycleHandler = obj({ exec, httpGet, sleep, tcpSocket });

/** Probe: ProbeHandler inlined, and the timing fields. */
export const probe = obj({
  exec,
  failureThreshold: int.describe('Consecutive failures after which the probe counts as failed (default 3, minimum 1).'),
  grpc,
  httpGet,
  initialDelaySeconds: int.describe('Seconds after the container started before the first probe.'),
  periodSeconds: int.describe('Seconds between probes (default 10, minimum 1).'),
  successThreshold: int.describe(
    'Consecutive successes after a failure for the probe to count as successful again (default 1; must be 1 for liveness and startup).',
  ),
  tcpSocket,
  terminationGracePeriodSeconds: int.describe(
    "Grace period given to the pod when this probe fails (overrides the pod's; not for readiness probes).",
  ),
  timeoutSeconds: int.describe('Seconds after which a probe times out (default 1, minimum 1).'),
});

const envVarSource = obj({
  configMapKeyRef: atomic(obj({ key: reqStr, name: str, optional: bool })),
  fieldRef: atomic(fieldRef),
  resourceFieldRef: atomic(resourceFieldRef),
  secretKeyRef: atomic(obj({ key: reqStr, name: str, optional: bool })),
});

/** ResourceRequirements: limits, requests and (DynamicResourceAllocation) claims. */
export const resourceRequirements = obj({
  claims: applyMap(
    reqObj({
      name: reqStr.describe('Name of an entry of spec.resourceClaims.'),
      request: str.describe('Name of a request of that claim; every request of the claim when empty.'),
    }),
    ['name'],
  ).describe('Resource claims (spec.resourceClaims) the container uses. DynamicResourceAllocation is off in 1.33.'),
  limits: quantityMap.describe('Maximum amount of each compute resource the container may use.'),
  requests: quantityMap.describe(
    'Minimum amount of each compute resource the container needs; scheduling uses these. Default to the limits when omitted.',
  ),
});

/** The fields every kind of container has (EphemeralContainerCommon's are the same). */
export const containerShape = {
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
      valueFrom: envVarSource,
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
  lifecycle: obj({
    postStart: lifecycleHandler.describe('Action run right after the container is created.'),
    preStop: lifecycleHandler.describe('Action run before the container is stopped; stopping waits for it.'),
    stopSignal: str.describe('Signal sent to stop the container (ContainerStopSignals: off in 1.33).'),
  }).describe(
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
      protocol: portProtocol.describe('Protocol of the port: TCP (the default), UDP or SCTP.'),
    }),
    { key: 'containerPort', keys: ['containerPort', 'protocol'], defaults: { protocol: 'TCP' } },
  ).describe('Ports to expose from the container. Informational: a port not listed here may still be reached.'),
  readinessProbe: probe.describe(
    'Periodic check of container readiness; the pod is removed from service endpoints while it fails.',
  ),
  resizePolicy: list(
    reqObj({
      resourceName: reqStr.describe('Resource the policy applies to: cpu or memory.'),
      restartPolicy: reqStr.describe('What a resize of it does: NotRequired (the default) or RestartContainer.'),
    }),
  ).describe('How each resource of the container is resized in place.'),
  resources: resourceRequirements.describe('Compute resources (cpu, memory) the container requests and is limited to.'),
  restartPolicy: str.describe(
    'Restart policy of this init container: Always makes it a sidecar, running beside the app containers. Only for init containers.',
  ),
  securityContext: containerSecurityContext,
  startupProbe: probe.describe(
    'Check that the container has started; liveness and readiness probes wait for it, and the container is restarted when it fails.',
  ),
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
      recursiveReadOnly: str.describe(
        'Whether a read-only mount is read-only recursively: Disabled (the default), IfPossible or Enabled.',
      ),
      subPath: str.describe('Path within the volume to mount instead of its root.'),
      subPathExpr: str.describe(
        "Like subPath, with $(VAR) references to the container's environment expanded; exclusive with subPath.",
      ),
    }),
    { key: 'mountPath' },
  ).describe("Pod volumes to mount into the container's filesystem."),
  workingDir: str.describe("Working directory of the container; the image's default when empty."),
};

/** A Container of the pod (containers, initContainers). */
export const container = reqObj(containerShape);

/** An EphemeralContainer: a container added to a running pod for debugging (pods/ephemeralcontainers). */
export const ephemeralContainer = reqObj({
  ...containerShape,
  targetContainerName: str.describe(
    'Name of the container whose namespaces (IPC, PID, ...) the ephemeral container shares.',
  ),
});
