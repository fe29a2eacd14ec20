/**
 * Containers as upstream validates them (pkg/apis/core/validation/validation.go
 * validateContainerCommon, validateContainers, validateInitContainers with 1.33's sidecars, validateContainerPorts, ValidateVolumeMounts,
 * validateMountPropagation, ValidateVolumeDevices, validatePullPolicy, checkHostPortConflicts /
 * AccumulateUniqueHostPorts, validateContainersOnlyForPod).
 */
import type { FieldError } from '../../validation/field-errors.js';
import { duplicate, forbidden, invalidValue, notFound, notSupported, required } from '../../validation/field-errors.js';
import { validateEnv, validateEnvFrom } from './env.js';
import { livenessSuccessThreshold, readinessGracePeriod, validateLifecycle, validateProbe } from './probes.js';
import { validateResources } from './resources.js';
import { validateSecurityContext } from './security.js';
import {
  fieldsOf,
  dns1123Label,
  invalidEach,
  isSet,
  isValidPortName,
  isValidPortNum,
  items,
  str,
  type Fields,
} from './strings.js';
import { localDescendingPath } from './volumes.js';

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
// SCTP is GA since 1.20.
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** validateContainerPorts: names unique IANA service names, port numbers in range, a protocol. */
function ports(list: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  items(list).forEach((p, i) => {
    const path = `${field}[${i}]`;
    const name = str(p.name);
    if (name) {
      const msgs = isValidPortName(name);
      if (msgs.length) errs.push(...invalidEach(`${path}.name`, name, msgs));
      else if (names.has(name)) errs.push(duplicate(`${path}.name`, name));
      else names.add(name);
    }
    const cp = typeof p.containerPort === 'number' ? p.containerPort : 0;
    if (cp === 0) errs.push(required(`${path}.containerPort`));
    else errs.push(...invalidEach(`${path}.containerPort`, cp, isValidPortNum(cp)));
    const hp = typeof p.hostPort === 'number' ? p.hostPort : 0;
    if (hp !== 0) errs.push(...invalidEach(`${path}.hostPort`, hp, isValidPortNum(hp)));
    // Case is not enforced: a corpus manifest says `tcp` (see api/core/schema-kit.ts).
    if (!str(p.protocol)) errs.push(required(`${path}.protocol`));
    else if (!PROTOCOLS.includes(str(p.protocol).toUpperCase()))
      errs.push(notSupported(`${path}.protocol`, p.protocol, PROTOCOLS));
  });
  return errs;
}

/** validateMountPropagation (MountPropagation is on in 1.10); upstream's path has no index. */
function mountPropagation(value: unknown, container: Fields, field: string): FieldError[] {
  const supported = ['Bidirectional', 'HostToContainer'];
  const errs: FieldError[] = [];
  if (!supported.includes(str(value))) errs.push(notSupported(field, value, supported));
  if (value === 'Bidirectional' && fieldsOf(container.securityContext).privileged !== true) {
    errs.push(forbidden(field, 'Bidirectional mount propagation is available only to privileged containers'));
  }
  return errs;
}

/** Upstream ValidateVolumeMounts. */
function volumeMounts(container: Fields, volumes: Map<string, Fields>, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const paths = new Set<string>();
  const devices = items(container.volumeDevices);
  items(container.volumeMounts).forEach((m, i) => {
    const path = `${field}[${i}]`;
    const name = str(m.name);
    const mountPath = str(m.mountPath);
    if (!name) errs.push(required(`${path}.name`));
    if (!volumes.has(name)) errs.push(notFound(`${path}.name`, name));
    if (!mountPath) errs.push(required(`${path}.mountPath`));
    if (paths.has(mountPath)) errs.push(invalidValue(`${path}.mountPath`, mountPath, 'must be unique'));
    paths.add(mountPath);
    if (devices.some((d) => str(d.name) === name))
      errs.push(invalidValue(`${path}.name`, name, 'must not already exist in volumeDevices'));
    if (devices.some((d) => str(d.devicePath) === mountPath))
      errs.push(invalidValue(`${path}.mountPath`, mountPath, 'must not already exist as a path in volumeDevices'));
    if (str(m.subPath)) errs.push(...localDescendingPath(str(m.subPath), `${field}.subPath`));
    if (isSet(m.mountPropagation))
      errs.push(...mountPropagation(m.mountPropagation, container, `${field}.mountPropagation`));
  });
  return errs;
}

/** Upstream validateContainerCommon: the rules every container kind shares (name format, image, ports, env, ...). */
function containerCommon(c: Fields, volumes: Map<string, Fields>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(c.name);
  if (!name) errs.push(required(`${path}.name`));
  else errs.push(...dns1123Label(name, `${path}.name`));
  if (!str(c.image)) errs.push(required(`${path}.image`));
  const policy = str(c.terminationMessagePolicy);
  if (!policy) errs.push(required(`${path}.terminationMessagePolicy`, "must be 'File' or 'FallbackToLogsOnError'"));
  else if (policy !== 'File' && policy !== 'FallbackToLogsOnError')
    errs.push(invalidValue(`${path}.terminationMessagePolicy`, policy, "must be 'File' or 'FallbackToLogsOnError'"));
  errs.push(
    ...ports(c.ports, `${path}.ports`),
    ...validateEnv(c.env, `${path}.env`),
    ...validateEnvFrom(c.envFrom, `${path}.envFrom`),
    ...volumeMounts(c, volumes, `${path}.volumeMounts`),
  );
  // BlockVolume is off in 1.10: any volumeDevices list is refused (upstream names the path twice).
  if (isSet(c.volumeDevices))
    errs.push(forbidden(`${path}.volumeDevices.volumeDevices`, 'Container volumeDevices is disabled by feature-gate'));
  const pull = str(c.imagePullPolicy);
  if (!pull) errs.push(required(`${path}.imagePullPolicy`));
  else if (!PULL_POLICIES.includes(pull)) errs.push(notSupported(`${path}.imagePullPolicy`, pull, PULL_POLICIES));
  errs.push(
    ...validateResources(c.resources, `${path}.resources`),
    ...validateSecurityContext(c.securityContext, `${path}.securityContext`),
  );
  return errs;
}

/** Lifecycle and the three probes, as regular containers and sidecars (restartable init containers) have them. */
function lifecycleAndProbes(c: Fields, path: string, gracePeriod?: number): FieldError[] {
  return [
    ...(isSet(c.lifecycle) ? validateLifecycle(fieldsOf(c.lifecycle), `${path}.lifecycle`, gracePeriod) : []),
    ...validateProbe(c.livenessProbe, `${path}.livenessProbe`),
    ...livenessSuccessThreshold(c.livenessProbe, `${path}.livenessProbe`),
    ...validateProbe(c.readinessProbe, `${path}.readinessProbe`),
    ...(isSet(c.readinessProbe) ? readinessGracePeriod(c.readinessProbe, `${path}.readinessProbe`) : []),
    ...validateProbe(c.startupProbe, `${path}.startupProbe`),
    ...livenessSuccessThreshold(c.startupProbe, `${path}.startupProbe`),
  ];
}

/** checkHostPortConflicts / AccumulateUniqueHostPorts: protocol/hostIP/hostPort unique across `list`. */
function hostPortConflicts(list: { c: Fields; path: string }[]): FieldError[] {
  const errs: FieldError[] = [];
  const hostPorts = new Set<string>();
  for (const { c, path } of list)
    items(c.ports).forEach((p, j) => {
      if (!p.hostPort) return;
      const key = `${str(p.protocol)}/${str(p.hostIP)}/${p.hostPort}`;
      if (hostPorts.has(key)) errs.push(duplicate(`${path}.ports[${j}].hostPort`, key));
      else hostPorts.add(key);
    });
  return errs;
}

/** Upstream validateContainers: common rules, unique names, lifecycle and probes, no restartPolicy. */
export function validateContainers(
  containers: unknown,
  volumes: Map<string, Fields>,
  field: string,
  gracePeriod?: number,
): FieldError[] {
  const list = items(containers);
  if (!list.length) return [required(field)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list.forEach((c, i) => {
    const path = `${field}[${i}]`;
    const name = str(c.name);
    errs.push(...containerCommon(c, volumes, path));
    if (names.has(name)) errs.push(duplicate(`${path}.name`, name));
    else names.add(name);
    errs.push(...lifecycleAndProbes(c, path, gracePeriod));
    if (isSet(c.restartPolicy)) errs.push(forbidden(`${path}.restartPolicy`, 'may not be set for non-init containers'));
  });
  errs.push(...hostPortConflicts(list.map((c, i) => ({ c, path: `${field}[${i}]` }))));
  return errs;
}

const SIDECAR_ONLY = 'may not be set for init containers without restartPolicy=Always';

/**
 * Upstream validateInitContainers: common rules, names unique with the app containers, a
 * restartPolicy only `Always` (a sidecar); lifecycle and probes only on sidecars.
 */
export function validateInitContainers(
  init: unknown,
  containers: unknown,
  volumes: Map<string, Fields>,
  field: string,
  gracePeriod?: number,
): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(items(containers).map((c) => str(c.name)));
  items(init).forEach((c, i) => {
    const path = `${field}[${i}]`;
    const name = str(c.name);
    errs.push(...containerCommon(c, volumes, path));
    if (isSet(c.restartPolicy) && c.restartPolicy !== 'Always')
      errs.push(notSupported(`${path}.restartPolicy`, c.restartPolicy, ['Always']));
    if (names.has(name)) errs.push(duplicate(`${path}.name`, name));
    else if (name) names.add(name);
    // Init containers run one at a time: host ports are checked per container (upstream's path
    // then says index 0 whatever the container's index).
    errs.push(...hostPortConflicts([{ c, path: `${field}[0]` }]));
    if (c.restartPolicy === 'Always') errs.push(...lifecycleAndProbes(c, path, gracePeriod));
    else
      for (const k of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'] as const)
        if (isSet(c[k])) errs.push(forbidden(`${path}.${k}`, SIDECAR_ONLY));
  });
  return errs;
}

/** validateContainersOnlyForPod: images without surrounding whitespace (pods, not templates). */
export function containersOnlyForPod(containers: unknown, field: string): FieldError[] {
  return items(containers).flatMap((c, i) => {
    const image = str(c.image);
    return image.trim() !== image
      ? [invalidValue(`${field}[${i}].image`, image, 'must not have leading or trailing whitespace')]
      : [];
  });
}

/** EphemeralContainerCommon fields an ephemeral container may not set, in upstream's struct order. */
const EPHEMERAL_FORBIDDEN = [
  'ports',
  'resources',
  'resizePolicy',
  'restartPolicy',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
] as const;

/** Go's IsZero for a JSON value: absent, null, '', 0, false, or an empty list or object. */
const isZero = (v: unknown): boolean =>
  !isSet(v) ||
  v === '' ||
  v === 0 ||
  v === false ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && !Array.isArray(v) && Object.values(v as object).every(isZero));

/**
 * Upstream 1.33 validateEphemeralContainers: the common container rules and the pod-only image
 * rule, a name unique across containers, init and ephemeral containers, an existing (not
 * ephemeral) target container, none of the fields outside upstream's allow list
 * (validateFieldAllowList) and no volume mount subPath or subPathExpr.
 */
export function validateEphemeralContainers(
  ephemeral: unknown,
  containers: unknown,
  init: unknown,
  volumes: Map<string, Fields>,
  field: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const others = new Set([...items(containers), ...items(init)].map((c) => str(c.name)));
  const seen = new Set<string>();
  items(ephemeral).forEach((c, i) => {
    const path = `${field}[${i}]`;
    const name = str(c.name);
    errs.push(
      ...containerCommon(c, volumes, path),
      ...containersOnlyForPod([c], field).map((e) => ({ ...e, field: `${path}.image` })),
    );
    if (others.has(name))
      errs.push(
        invalidValue(
          `${path}.name`,
          name,
          'must be unique among all containers, init containers and ephemeral containers',
        ),
      );
    else if (seen.has(name)) errs.push(duplicate(`${path}.name`, name));
    else seen.add(name);
    const target = str(c.targetContainerName);
    if (target && !others.has(target)) errs.push(notFound(`${path}.targetContainerName`, target));
    for (const k of EPHEMERAL_FORBIDDEN)
      if (!isZero(c[k])) errs.push(forbidden(`${path}.${k}`, 'cannot be set for an Ephemeral Container'));
    items(c.volumeMounts).forEach((m, j) => {
      for (const k of ['subPath', 'subPathExpr'] as const)
        if (str(m[k]))
          errs.push(forbidden(`${path}.volumeMounts[${j}].${k}`, 'cannot be set for an Ephemeral Container'));
    });
  });
  return errs;
}
