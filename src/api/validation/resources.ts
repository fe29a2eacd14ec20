/**
 * Resource-name and quantity rules shared by the cluster, storage and policy kinds, as
 * upstream 1.10 pkg/apis/core/validation (validateResourceName, ValidateResourceQuantityValue,
 * ...) and pkg/apis/core/helper (IsStandardResourceName, IsIntegerResourceName, ...) define
 * them, plus the Go renderings of values that upstream's field errors print with `%#v`.
 */
import { validateDns1123Subdomain, validateQualifiedName } from '../names.js';
import { formatQuantity, milliValue, parseQuantity, QuantityError, type Quantity } from '../quantity.js';
import { invalidValue, type FieldError } from './field-errors.js';

const HUGEPAGES = 'hugepages-';
const REQUESTS = 'requests.';

const STANDARD_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'storage',
  'requests.storage',
  'services.nodeports',
  'services.loadbalancers',
]);

const STANDARD_QUOTA_RESOURCES = new Set([...STANDARD_RESOURCES].filter((r) => r !== 'storage'));

const INTEGER_RESOURCES = new Set([
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

/** Upstream helper.IsHugePageResourceName. */
export function isHugePageResourceName(name: string): boolean {
  return name.startsWith(HUGEPAGES);
}

/** Upstream helper.IsQuotaHugePageResourceName. */
function isQuotaHugePageResourceName(name: string): boolean {
  return name.startsWith(HUGEPAGES) || name.startsWith(REQUESTS + HUGEPAGES);
}

/** Upstream helper.IsNativeResource: no domain, or in the kubernetes.io domain. */
function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** Upstream helper.IsExtendedResourceName. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith(REQUESTS)) return false;
  return validateQualifiedName(REQUESTS + name).length === 0;
}

/** Upstream helper.IsStandardQuotaResourceName. */
export function isStandardQuotaResourceName(name: string): boolean {
  return STANDARD_QUOTA_RESOURCES.has(name) || isQuotaHugePageResourceName(name);
}

/** Upstream helper.IsIntegerResourceName. */
function isIntegerResourceName(name: string): boolean {
  return INTEGER_RESOURCES.has(name) || isExtendedResourceName(name);
}

/** Upstream helper.IsOvercommitAllowed: not hugepages and not an extended resource. */
export function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !isHugePageResourceName(name);
}

/** Upstream validateResourceName: a qualified name, standard unless it has a domain. */
export function validateResourceName(value: string, path: string): FieldError[] {
  const errs = validateQualifiedName(value).map((m) => invalidValue(path, value, m));
  if (errs.length) return errs;
  if (!value.includes('/') && !(STANDARD_RESOURCES.has(value) || isQuotaHugePageResourceName(value))) {
    return [invalidValue(path, value, 'must be a standard resource type or fully qualified')];
  }
  return [];
}

/** Upstream validateContainerResourceName (Pod and Container limit types). */
export function validateContainerResourceName(value: string, path: string): FieldError[] {
  const errs = validateResourceName(value, path);
  if (!value.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(value) && !isHugePageResourceName(value)) {
      return [...errs, invalidValue(path, value, 'must be a standard resource for containers')];
    }
  } else if (!isNativeResource(value) && !isExtendedResourceName(value)) {
    return [...errs, invalidValue(path, value, "doesn't follow extended resource name standard")];
  }
  return errs;
}

/** Upstream ValidateResourceQuotaResourceName. */
export function validateQuotaResourceName(value: string, path: string): FieldError[] {
  const errs = validateResourceName(value, path);
  if (!value.includes('/') && !isStandardQuotaResourceName(value)) {
    return [...errs, invalidValue(path, value, 'must be a standard resource for quota')];
  }
  return errs;
}

/** A quantity as stored JSON gives it (string or number), parsed; undefined when malformed. */
export function quantityOfJson(value: unknown): Quantity | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  try {
    return parseQuantity(value);
  } catch (err) {
    if (err instanceof QuantityError) return undefined;
    throw err;
  }
}

/** Upstream ValidateNonnegativeQuantity (the value printed as its canonical string). */
export function validateNonnegativeQuantity(q: Quantity, path: string): FieldError[] {
  return q.coef < 0n ? [invalidValue(path, formatQuantity(q), 'must be greater than or equal to 0')] : [];
}

/**
 * Upstream ValidateResourceQuantityValue: non-negative, and `MilliValue() % 1000 == 0` for
 * integer resources, with MilliValue's int64 overflow (so `pods: 1e400` passes, as upstream).
 */
export function validateResourceQuantityValue(resource: string, raw: unknown, path: string): FieldError[] {
  const q = quantityOfJson(raw);
  if (!q) return [];
  const errs = validateNonnegativeQuantity(q, path);
  if (isIntegerResourceName(resource) && milliValue(q) % 1000n !== 0n) {
    errs.push(invalidGo(path, goQuantity(raw, false), 'must be an integer'));
  }
  return errs;
}

/**
 * A resource.Quantity printed as Go's `%#v` prints the struct (how field errors show a Quantity
 * value): the int64Amount value and scale (zero when upstream holds an inf.Dec, whose pointer
 * we print as nil), and the string upstream keeps (from ParseQuantity for canonical input, or
 * from an earlier String() call when `stringified`).
 */
export function goQuantity(raw: unknown, stringified = true): string {
  const q = quantityOfJson(raw);
  if (!q) return `resource.Quantity{}`;
  const s = stringified ? formatQuantity(q) : (q.text ?? '');
  const [value, scale] = q.int64 ? [String(q.coef), q.exp] : ['0', 0];
  return (
    `resource.Quantity{i:resource.int64Amount{value:${value}, scale:${scale}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, ` +
    `s:${JSON.stringify(s)}, Format:${JSON.stringify(q.format)}}`
  );
}

/**
 * Field errors whose bad value upstream prints with `%#v` (structs, maps, Quantities): the
 * same wording as field-errors.ts with the value given already rendered as Go prints it.
 */
export function invalidGo(field: string, goValue: string, detail: string): FieldError {
  return { reason: 'FieldValueInvalid', field, message: `Invalid value: ${goValue}: ${detail}` };
}

/** `Duplicate value: <go value>` (optionally with upstream's detail appended). */
export function duplicateGo(field: string, goValue: string, detail = ''): FieldError {
  return { reason: 'FieldValueDuplicate', field, message: `Duplicate value: ${goValue}${detail ? `: ${detail}` : ''}` };
}

/** `Unsupported value: <go value>: supported values: "a", "b"`. */
export function notSupportedGo(field: string, goValue: string, supported: readonly string[]): FieldError {
  return {
    reason: 'FieldValueNotSupported',
    field,
    message: `Unsupported value: ${goValue}: supported values: ${supported.map((v) => JSON.stringify(v)).join(', ')}`,
  };
}

/** A Go `%#v` of a string slice of a named element type (`[]core.Capability{"A"}`), nil as `[]T(nil)`. */
export function goSlice(type: string, items: readonly unknown[] | undefined): string {
  if (items === undefined || items === null) return `[]${type}(nil)`;
  return `[]${type}{${items.map((i) => JSON.stringify(String(i))).join(', ')}}`;
}

/** A DNS-1123 subdomain check worded as upstream, for storage class names and the like. */
export function subdomainErrors(value: string, path: string): FieldError[] {
  return validateDns1123Subdomain(value).map((m) => invalidValue(path, value, m));
}
