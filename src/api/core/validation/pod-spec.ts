/**
 * Upstream 1.10 ValidatePodSpec, ValidatePodSpecificAnnotations and ValidatePodTemplateSpec
 * (pkg/apis/core/validation/validation.go): the rules pods, pod templates and replication
 * controller templates share. `path` is where the spec sits (`spec`, `template.spec`,
 * `spec.template.spec`). Feature gates as 1.10's defaults (CustomPodDNS on, PodPriority off).
 */
import type { FieldError } from '../../validation/field-errors.js';
import { forbidden, invalidValue, notSupported, required } from '../../validation/field-errors.js';
import { validateContainers, validateInitContainers } from './containers.js';
import { validatePodSpecSince110 } from './pod-os.js';
import { validateAffinity, validateTolerations, validateTopologySpreadConstraints } from './scheduling.js';
import { validatePodSecurityContext } from './security.js';
import {
  annotationKeys,
  fieldsOf,
  dns1123Label,
  dns1123Subdomain,
  inclusiveRange,
  invalidStrings,
  isIp,
  items,
  labels,
  str,
  type Fields,
} from './strings.js';
import { localDescendingPath, validateVolumes } from './volumes.js';

const MAX_INT32 = 2147483647;
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
/** The annotation of a mirror pod, the API's copy of a node's static pod (upstream core.MirrorPodAnnotationKey). */
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER = 'container.seccomp.security.alpha.kubernetes.io/';
const APPARMOR = 'container.apparmor.security.beta.kubernetes.io/';

/** validatePodDNSConfig: `None` needs nameservers; limits of libc's resolver. */
function dnsConfig(spec: Fields, field: string): FieldError[] {
  const hasConfig = Boolean(spec.dnsConfig);
  const cfg = fieldsOf(spec.dnsConfig);
  const nameservers: unknown[] = Array.isArray(cfg.nameservers) ? cfg.nameservers : [];
  if (spec.dnsPolicy === 'None') {
    if (!hasConfig) return [required(field, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (!nameservers.length)
      return [required(`${field}.nameservers`, 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!hasConfig) return [];
  const errs: FieldError[] = [];
  if (nameservers.length > 3)
    errs.push(invalidStrings(`${field}.nameservers`, nameservers, 'must not have more than 3 nameservers'));
  nameservers.forEach((ns, i) => {
    if (!isIp(str(ns))) errs.push(invalidValue(`${field}.nameservers[${i}]`, ns, 'must be valid IP address'));
  });
  const searches: string[] = Array.isArray(cfg.searches) ? cfg.searches.map(str) : [];
  if (searches.length > 6)
    errs.push(invalidStrings(`${field}.searches`, searches, 'must not have more than 6 search paths'));
  if (searches.join(' ').length > 256)
    errs.push(
      invalidStrings(
        `${field}.searches`,
        searches,
        'must not have more than 256 characters (including spaces) in the search list',
      ),
    );
  searches.forEach((s, i) => errs.push(...dns1123Subdomain(s, `${field}.searches[${i}]`)));
  items(cfg.options).forEach((o, i) => {
    if (!str(o.name)) errs.push(required(`${field}.options[${i}]`, 'must not be empty'));
  });
  return errs;
}

/** ValidateHostAliases (upstream's paths carry no index). */
function hostAliases(list: unknown, field: string): FieldError[] {
  return items(list).flatMap((a) => [
    ...(isIp(str(a.ip)) ? [] : [invalidValue(`${field}.ip`, str(a.ip), 'must be valid IP address')]),
    ...(Array.isArray(a.hostnames) ? a.hostnames : []).flatMap((h: unknown) =>
      dns1123Subdomain(str(h), `${field}.hostnames`),
    ),
  ]);
}

/** Upstream ValidatePodSpec for the spec at `path`. */
export function validatePodSpec(spec: unknown, path: string): FieldError[] {
  const s = fieldsOf(spec);
  const { errors, byName } = validateVolumes(s.volumes, `${path}.volumes`);
  const grace = typeof s.terminationGracePeriodSeconds === 'number' ? s.terminationGracePeriodSeconds : undefined;
  const errs = [
    ...errors,
    ...validateContainers(s.containers, byName, `${path}.containers`, grace),
    ...validateInitContainers(s.initContainers, s.containers, byName, `${path}.initContainers`, grace),
  ];
  const restart = str(s.restartPolicy);
  if (!restart) errs.push(required(`${path}.restartPolicy`));
  else if (!RESTART_POLICIES.includes(restart))
    errs.push(notSupported(`${path}.restartPolicy`, restart, RESTART_POLICIES));
  const dns = str(s.dnsPolicy);
  if (!dns) errs.push(required(`${path}.dnsPolicy`));
  else if (!DNS_POLICIES.includes(dns)) errs.push(notSupported(`${path}.dnsPolicy`, dns, DNS_POLICIES));
  errs.push(
    ...labels(s.nodeSelector, `${path}.nodeSelector`),
    ...validatePodSecurityContext(s, path),
    ...validateAffinity(s.affinity, `${path}.affinity`),
    ...dnsConfig(s, `${path}.dnsConfig`),
  );
  if (str(s.serviceAccountName))
    errs.push(...dns1123Subdomain(str(s.serviceAccountName), `${path}.serviceAccountName`));
  if (str(s.nodeName)) errs.push(...dns1123Subdomain(str(s.nodeName), `${path}.nodeName`));
  const ads = s.activeDeadlineSeconds;
  if (typeof ads === 'number' && (ads < 1 || ads > MAX_INT32))
    errs.push(invalidValue(`${path}.activeDeadlineSeconds`, ads, inclusiveRange(1, MAX_INT32)));
  if (str(s.hostname)) errs.push(...dns1123Label(str(s.hostname), `${path}.hostname`));
  if (str(s.subdomain)) errs.push(...dns1123Label(str(s.subdomain), `${path}.subdomain`));
  errs.push(
    ...validateTolerations(s.tolerations, `${path}.tolerations`),
    ...hostAliases(s.hostAliases, `${path}.hostAliases`),
    ...validateTopologySpreadConstraints(s.topologySpreadConstraints, `${path}.topologySpreadConstraints`),
    ...validatePodSpecSince110(s, path),
  );
  return errs;
}

/** ValidateSeccompProfile. */
function seccompProfile(p: string, field: string): FieldError[] {
  if (p === 'docker/default' || p === 'unconfined') return [];
  if (p.startsWith('localhost/')) return localDescendingPath(p.slice('localhost/'.length), field);
  return [invalidValue(field, p, 'must be a valid seccomp profile')];
}

/**
 * Upstream ValidatePodSpecificAnnotations: the mirror-pod annotation needs a node; seccomp and
 * AppArmor annotations name valid profiles and existing containers. (The sysctl and
 * tolerations annotations are not checked.)
 */
export function validatePodSpecificAnnotations(annotations: unknown, spec: unknown, field: string): FieldError[] {
  const a = fieldsOf(annotations);
  const s = fieldsOf(spec);
  const errs: FieldError[] = [];
  if (MIRROR_POD_ANNOTATION in a && !str(s.nodeName))
    errs.push(
      invalidValue(
        `${field}[${MIRROR_POD_ANNOTATION}]`,
        a[MIRROR_POD_ANNOTATION],
        'must set spec.nodeName if mirror pod annotation is set',
      ),
    );
  if (SECCOMP_POD in a) errs.push(...seccompProfile(str(a[SECCOMP_POD]), `${field}.${SECCOMP_POD}`));
  const names = new Set([...items(s.containers), ...items(s.initContainers)].map((c) => str(c.name)));
  for (const [k, v] of Object.entries(a)) {
    if (k.startsWith(SECCOMP_CONTAINER)) errs.push(...seccompProfile(str(v), `${field}.${k}`));
    if (!k.startsWith(APPARMOR)) continue;
    const container = k.slice(APPARMOR.length);
    if (!names.has(container)) errs.push(invalidValue(`${field}[${k}]`, container, 'container not found'));
    if (typeof v === 'string' && v && v !== 'runtime/default' && !v.startsWith('localhost/'))
      errs.push(invalidValue(`${field}[${k}]`, v, `invalid AppArmor profile name: ${JSON.stringify(v)}`));
  }
  return errs;
}

/**
 * Upstream ValidatePodTemplateSpec for the template at `path` (`template`, `spec.template`);
 * 1.33 refuses ephemeral containers in a template.
 */
export function validatePodTemplateSpec(template: unknown, path: string): FieldError[] {
  const t = fieldsOf(template);
  const meta = fieldsOf(t.metadata);
  return [
    ...labels(meta.labels, `${path}.labels`),
    ...annotationKeys(meta.annotations, `${path}.annotations`),
    ...validatePodSpecificAnnotations(meta.annotations, t.spec, `${path}.annotations`),
    ...validatePodSpec(t.spec, `${path}.spec`),
    ...(Array.isArray(fieldsOf(t.spec).ephemeralContainers) &&
    (fieldsOf(t.spec).ephemeralContainers as unknown[]).length
      ? [forbidden(`${path}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template')]
      : []),
  ];
}
