/** PodSpec and its parts (Container, Probe, Handler, affinity, ...), as the spec lists them. */
import { z } from 'zod';
import { bool, int, intOrString, protocol, labelSelector, list, localRef, obj, oneOf, quantityMap, reqInt, reqList, reqObj, reqStr, str, strList, strMap, time } from './schema-kit.js';
import { fieldRef, resourceFieldRef, volume } from './volumes.js';

const seLinuxOptions = obj({ level: str, role: str, type: str, user: str });
const handlerFields = {
  exec: obj({ command: strList }),
  httpGet: obj({ host: str, httpHeaders: list(reqObj({ name: reqStr, value: reqStr })), path: str, port: intOrString.unwrap().unwrap(), scheme: oneOf(['HTTP', 'HTTPS']) }),
  tcpSocket: obj({ host: str, port: intOrString.unwrap().unwrap() }),
};
const handler = obj(handlerFields);
const probe = obj({ ...handlerFields, failureThreshold: int, initialDelaySeconds: int, periodSeconds: int, successThreshold: int, timeoutSeconds: int });

const containerStateFields = {
  running: obj({ startedAt: time }),
  terminated: obj({ containerID: str, exitCode: reqInt, finishedAt: time, message: str, reason: str, signal: int, startedAt: time }),
  waiting: obj({ message: str, reason: str }),
};

/** ContainerStatus (pod status). */
export const containerStatus = reqObj({
  containerID: str,
  image: reqStr,
  imageID: reqStr,
  lastState: obj(containerStateFields),
  name: reqStr,
  ready: z.boolean(),
  restartCount: reqInt,
  state: obj(containerStateFields),
});

const container = reqObj({
  args: strList,
  command: strList,
  env: list(
    reqObj({
      name: reqStr,
      value: str,
      valueFrom: obj({
        configMapKeyRef: obj({ key: reqStr, name: str, optional: bool }),
        fieldRef,
        resourceFieldRef,
        secretKeyRef: obj({ key: reqStr, name: str, optional: bool }),
      }),
    }),
  ),
  envFrom: list(reqObj({ configMapRef: obj({ name: str, optional: bool }), prefix: str, secretRef: obj({ name: str, optional: bool }) })),
  image: str,
  imagePullPolicy: oneOf(['Always', 'Never', 'IfNotPresent']),
  lifecycle: obj({ postStart: handler, preStop: handler }),
  livenessProbe: probe,
  name: reqStr,
  ports: list(reqObj({ containerPort: reqInt, hostIP: str, hostPort: int, name: str, protocol })),
  readinessProbe: probe,
  resources: obj({ limits: quantityMap, requests: quantityMap }),
  securityContext: obj({
    allowPrivilegeEscalation: bool,
    capabilities: obj({ add: strList, drop: strList }),
    privileged: bool,
    readOnlyRootFilesystem: bool,
    runAsNonRoot: bool,
    runAsUser: int,
    seLinuxOptions,
  }),
  stdin: bool,
  stdinOnce: bool,
  terminationMessagePath: str,
  terminationMessagePolicy: oneOf(['File', 'FallbackToLogsOnError']),
  tty: bool,
  volumeDevices: list(reqObj({ devicePath: reqStr, name: reqStr })),
  volumeMounts: list(reqObj({ mountPath: reqStr, mountPropagation: str, name: reqStr, readOnly: bool, subPath: str })),
  workingDir: str,
});

const nodeSelectorRequirement = reqObj({ key: reqStr, operator: oneOf(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt']).unwrap().unwrap(), values: strList });
const nodeSelectorTerm = reqObj({ matchExpressions: list(nodeSelectorRequirement) });
const podAffinityTerm = reqObj({ labelSelector, namespaces: strList, topologyKey: str });
const podAffinity = obj({
  preferredDuringSchedulingIgnoredDuringExecution: list(reqObj({ podAffinityTerm, weight: reqInt })),
  requiredDuringSchedulingIgnoredDuringExecution: list(podAffinityTerm),
});

/** The PodSpec fields. */
export const podSpecShape = {
  activeDeadlineSeconds: int,
  affinity: obj({
    nodeAffinity: obj({
      preferredDuringSchedulingIgnoredDuringExecution: list(reqObj({ preference: nodeSelectorTerm, weight: reqInt })),
      requiredDuringSchedulingIgnoredDuringExecution: obj({ nodeSelectorTerms: reqList(nodeSelectorTerm) }),
    }),
    podAffinity,
    podAntiAffinity: podAffinity,
  }),
  automountServiceAccountToken: bool,
  containers: reqList(container),
  dnsConfig: obj({ nameservers: strList, options: list(reqObj({ name: str, value: str })), searches: strList }),
  dnsPolicy: oneOf(['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']),
  hostAliases: list(reqObj({ hostnames: strList, ip: str })),
  hostIPC: bool,
  hostNetwork: bool,
  hostPID: bool,
  hostname: str,
  imagePullSecrets: list(reqObj(localRef)),
  initContainers: list(container),
  nodeName: str,
  nodeSelector: strMap,
  priority: int,
  priorityClassName: str,
  restartPolicy: oneOf(['Always', 'OnFailure', 'Never']),
  schedulerName: str,
  securityContext: obj({ fsGroup: int, runAsNonRoot: bool, runAsUser: int, seLinuxOptions, supplementalGroups: list(z.number().int()) }),
  serviceAccount: str,
  serviceAccountName: str,
  subdomain: str,
  terminationGracePeriodSeconds: int,
  tolerations: list(reqObj({ effect: oneOf(['NoSchedule', 'PreferNoSchedule', 'NoExecute']), key: str, operator: oneOf(['Exists', 'Equal']), tolerationSeconds: int, value: str })),
  volumes: list(volume),
};

export const podSpec = reqObj(podSpecShape);
