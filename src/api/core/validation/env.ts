/**
 * Container environment as upstream 1.10 validates it (pkg/apis/core/validation/validation.go
 * ValidateEnv, validateEnvVarValueFrom, ValidateEnvFrom, validateObjectFieldSelector,
 * validateContainerResourceFieldSelector, validateContainerResourceDivisor, the key selectors;
 * pkg/apis/core/pods ConvertDownwardAPIFieldLabel for field paths).
 */
import type { FieldError } from '../../validation/field-errors.js';
import { invalidValue, notSupported, required } from '../../validation/field-errors.js';
import { canonicalQuantity } from '../../quantity.js';
import {
  fieldsOf,
  dns1123Subdomain,
  dns1123SubdomainPrefix,
  invalidEach,
  isConfigMapKey,
  isEnvVarName,
  isQualifiedName,
  isSet,
  items,
  str,
  type Fields,
} from './strings.js';

/** Field paths an env var may read (validEnvDownwardAPIFieldPathExpressions, sorted). */
export const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.podIP',
];
/** Field paths a downward API volume file may read (validVolumeDownwardAPIFieldPathExpressions). */
export const VOLUME_FIELD_PATHS = [
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
];
const RESOURCE_PATHS = [
  'limits.cpu',
  'limits.ephemeral-storage',
  'limits.memory',
  'requests.cpu',
  'requests.ephemeral-storage',
  'requests.memory',
];
/** Labels ConvertDownwardAPIFieldLabel accepts for v1 pods. */
const POD_FIELD_LABELS = [
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.podIP',
];

/** fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['key']` -> [path, subscript]. */
function splitSubscript(path: string): [string, string] | undefined {
  if (!path.endsWith("']")) return undefined;
  const s = path.slice(0, -2);
  const at = s.indexOf("['");
  if (at <= 0) return undefined;
  return [s.slice(0, at), s.slice(at + 2)];
}

/** ConvertDownwardAPIFieldLabel: the internal label, or the conversion error. */
function convertFieldLabel(version: string, label: string): { path: string } | { error: string } {
  if (version !== 'v1') return { error: `unsupported pod version: ${version}` };
  const sub = splitSubscript(label);
  if (sub)
    return ['metadata.annotations', 'metadata.labels'].includes(sub[0])
      ? { path: label }
      : { error: `field label does not support subscript: ${label}` };
  if (label === 'spec.host') return { path: 'spec.nodeName' };
  return POD_FIELD_LABELS.includes(label) ? { path: label } : { error: `field label not supported: ${label}` };
}

/**
 * validateObjectFieldSelector: a supported field path (apiVersion defaults to v1, as upstream
 * defaults every ObjectFieldSelector before validation).
 */
export function objectFieldSelector(fs: Fields, expressions: readonly string[], field: string): FieldError[] {
  const version = isSet(fs.apiVersion) && fs.apiVersion !== '' ? str(fs.apiVersion) : 'v1';
  const fieldPath = str(fs.fieldPath);
  if (!fieldPath) return [required(`${field}.fieldPath`)];
  const converted = convertFieldLabel(version, fieldPath);
  if ('error' in converted)
    return [invalidValue(`${field}.fieldPath`, fieldPath, `error converting fieldPath: ${converted.error}`)];
  const sub = splitSubscript(converted.path);
  if (sub) {
    const [path, key] = sub;
    if (path === 'metadata.annotations') return invalidEach(field, key, isQualifiedName(key.toLowerCase()));
    if (path === 'metadata.labels') return invalidEach(field, key, isQualifiedName(key));
    return [invalidValue(field, path, 'does not support subscript')];
  }
  return expressions.includes(converted.path) ? [] : [notSupported(`${field}.fieldPath`, converted.path, expressions)];
}

const CPU_DIVISORS = ['1m', '1'];
const BYTE_DIVISORS = ['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei'];

/** validateContainerResourceDivisor. */
function divisor(resource: string, value: unknown, field: string): FieldError[] {
  if (!isSet(value)) return [];
  if (typeof value !== 'string' && typeof value !== 'number') return [];
  let text: string;
  try {
    text = canonicalQuantity(value);
  } catch {
    return [];
  }
  if (text === '0') return [];
  if (resource.endsWith('.cpu') && !CPU_DIVISORS.includes(text)) {
    return [
      invalidValue(`${field}.divisor`, resource, "only divisor's values 1m and 1 are supported with the cpu resource"),
    ];
  }
  const bytes = `only divisor's values ${BYTE_DIVISORS.join(', ')} are supported with the`;
  if (resource.endsWith('.memory') && !BYTE_DIVISORS.includes(text))
    return [invalidValue(`${field}.divisor`, resource, `${bytes} memory resource`)];
  if (resource.endsWith('.ephemeral-storage') && !BYTE_DIVISORS.includes(text)) {
    return [invalidValue(`${field}.divisor`, resource, `${bytes} local ephemeral storage resource`)];
  }
  return [];
}

/** validateContainerResourceFieldSelector (`volume`: a downward API file, which must name its container). */
export function resourceFieldSelector(fs: Fields, field: string, volume: boolean): FieldError[] {
  const resource = str(fs.resource);
  const errs: FieldError[] = [];
  if (volume && !str(fs.containerName)) errs.push(required(`${field}.containerName`));
  else if (!resource) errs.push(required(`${field}.resource`));
  else if (!RESOURCE_PATHS.includes(resource)) errs.push(notSupported(`${field}.resource`, resource, RESOURCE_PATHS));
  return [...errs, ...divisor(resource, fs.divisor, field)];
}

/** validateConfigMapKeySelector / validateSecretKeySelector: name (even empty) and key. */
function keySelector(s: Fields, field: string): FieldError[] {
  const key = str(s.key);
  return [
    ...dns1123Subdomain(str(s.name), `${field}.name`),
    ...(key ? invalidEach(`${field}.key`, key, isConfigMapKey(key)) : [required(`${field}.key`)]),
  ];
}

const VALUE_FROM = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'] as const;

/** validateEnvVarValueFrom: exactly one source, and no `value` beside it. */
function valueFrom(ev: Fields, field: string): FieldError[] {
  if (!isSet(ev.valueFrom)) return [];
  const vf = fieldsOf(ev.valueFrom);
  const errs: FieldError[] = [];
  const present = VALUE_FROM.filter((k) => isSet(vf[k]));
  for (const k of present) {
    if (k === 'fieldRef')
      errs.push(...objectFieldSelector(fieldsOf(vf.fieldRef), ENV_FIELD_PATHS, `${field}.fieldRef`));
    if (k === 'resourceFieldRef')
      errs.push(...resourceFieldSelector(fieldsOf(vf.resourceFieldRef), `${field}.resourceFieldRef`, false));
    if (k === 'configMapKeyRef' || k === 'secretKeyRef') errs.push(...keySelector(fieldsOf(vf[k]), `${field}.${k}`));
  }
  if (present.length === 0)
    errs.push(
      invalidValue(
        field,
        '',
        'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      ),
    );
  else if (str(ev.value)) errs.push(invalidValue(field, '', 'may not be specified when `value` is not empty'));
  else if (present.length > 1)
    errs.push(invalidValue(field, '', 'may not have more than one field specified at a time'));
  return errs;
}

/** Upstream ValidateEnv: names are env var names; valueFrom rules. */
export function validateEnv(env: unknown, field: string): FieldError[] {
  return items(env).flatMap((ev, i) => {
    const name = str(ev.name);
    const path = `${field}[${i}]`;
    return [
      ...(name ? invalidEach(`${path}.name`, name, isEnvVarName(name)) : [required(`${path}.name`)]),
      ...valueFrom(ev, `${path}.valueFrom`),
    ];
  });
}

/** Upstream ValidateEnvFrom: prefix an env var name; exactly one of configMapRef / secretRef. */
export function validateEnvFrom(envFrom: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  items(envFrom).forEach((ev, i) => {
    const path = `${field}[${i}]`;
    const prefix = str(ev.prefix);
    if (prefix) errs.push(...invalidEach(`${path}.prefix`, prefix, isEnvVarName(prefix)));
    let n = 0;
    for (const k of ['configMapRef', 'secretRef'] as const) {
      if (!isSet(ev[k])) continue;
      n++;
      const name = str(fieldsOf(ev[k]).name);
      errs.push(...(name ? dns1123SubdomainPrefix(name, `${path}.${k}.name`) : [required(`${path}.${k}.name`)]));
    }
    if (n === 0) errs.push(invalidValue(field, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (n > 1) errs.push(invalidValue(field, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}
