/**
 * Container compute resources as upstream 1.10 validates them (pkg/apis/core/validation/
 * validation.go ValidateResourceRequirements, validateContainerResourceName,
 * validateResourceName, ValidateResourceQuantityValue; pkg/apis/core/helper for the resource
 * name classes). HugePages is on by default in 1.10, so its rules apply.
 */
import type { FieldError } from '../../validation/field-errors.js';
import { forbidden, invalidValue, required } from '../../validation/field-errors.js';
import { compareQuantities, formatQuantity, milliValue, type Quantity } from '../../quantity.js';
import { quantityOfJson } from '../../validation/resources.js';
import { fieldsOf, invalidEach, isQualifiedName, IS_NEGATIVE, items } from './strings.js';

const HUGEPAGES = 'hugepages-';
/** helper.IsStandardResourceName's list (1.10). */
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
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'persistentvolumeclaims',
  'requests.storage',
  'configmaps',
  'services.nodeports',
  'services.loadbalancers',
]);
const CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
/** helper.IsIntegerResourceName: standard integer resources, and extended resources. */
const INTEGER_RESOURCES = new Set([
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'services.nodeports',
  'services.loadbalancers',
]);

const isHugePages = (name: string) => name.startsWith(HUGEPAGES);
const isNative = (name: string) => !name.includes('/') || name.includes('kubernetes.io/');
/** helper.IsExtendedResourceName. */
function isExtended(name: string): boolean {
  if (isNative(name) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}
/** helper.IsOvercommitAllowed: native resources other than huge pages. */
const overcommitAllowed = (name: string) => isNative(name) && !isHugePages(name);

/** validateResourceName. */
function resourceName(value: string, field: string): FieldError[] {
  const errs = invalidEach(field, value, isQualifiedName(value));
  if (errs.length) return errs;
  if (!value.includes('/') && !STANDARD_RESOURCES.has(value) && !isHugePages(value))
    return [invalidValue(field, value, 'must be a standard resource type or fully qualified')];
  return [];
}

/** validateContainerResourceName. */
function containerResourceName(value: string, field: string): FieldError[] {
  const errs = resourceName(value, field);
  if (!value.includes('/')) {
    if (!CONTAINER_RESOURCES.has(value) && !isHugePages(value))
      errs.push(invalidValue(field, value, 'must be a standard resource for containers'));
  } else if (!isNative(value) && !isExtended(value)) {
    errs.push(invalidValue(field, value, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** ValidateResourceQuantityValue: non-negative; whole (MilliValue() % 1000, overflowing as upstream) for integer resources. */
function quantityValue(name: string, q: Quantity, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (q.coef < 0n) errs.push(invalidValue(field, formatQuantity(q), IS_NEGATIVE));
  if ((INTEGER_RESOURCES.has(name) || isExtended(name)) && milliValue(q) % 1000n !== 0n)
    errs.push(invalidValue(field, formatQuantity(q), 'must be an integer'));
  return errs;
}

/** Upstream ValidateResourceRequirements for one container's `resources`. */
export function validateResources(resources: unknown, field: string): FieldError[] {
  const r = fieldsOf(resources);
  const limits = fieldsOf(r.limits);
  const requests = fieldsOf(r.requests);
  const errs: FieldError[] = [];
  let cpuOrMemory = false;
  let hugePages = false;
  for (const [name, value] of Object.entries(limits)) {
    const path = `${field}.limits[${name}]`;
    errs.push(...containerResourceName(name, path));
    const q = quantityOfJson(value);
    if (q) errs.push(...quantityValue(name, q, path));
    if (isHugePages(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  for (const [name, value] of Object.entries(requests)) {
    const path = `${field}.requests[${name}]`;
    errs.push(...containerResourceName(name, path));
    const q = quantityOfJson(value);
    if (q) errs.push(...quantityValue(name, q, path));
    const limit = quantityOfJson(limits[name]);
    if (q && limit) {
      const cmp = compareQuantities(q, limit);
      if (cmp !== 0 && !overcommitAllowed(name))
        errs.push(invalidValue(`${field}.requests`, formatQuantity(q), `must be equal to ${name} limit`));
      else if (cmp > 0)
        errs.push(invalidValue(`${field}.requests`, formatQuantity(q), `must be less than or equal to ${name} limit`));
    } else if (!(name in limits) && !overcommitAllowed(name)) {
      errs.push(required(`${field}.limits`, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePages(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  if (hugePages && !cpuOrMemory) errs.push(forbidden(field, 'HugePages require cpu or memory'));
  return errs;
}

/** ValidatePod's HugePages rule: the huge page sizes the containers use (at most one allowed). */
export function hugePageSizes(containers: unknown): string[] {
  const sizes = new Set<string>();
  for (const c of items(containers)) {
    const r = fieldsOf(c.resources);
    for (const list of [r.requests, r.limits])
      for (const name of Object.keys(fieldsOf(list))) if (isHugePages(name)) sizes.add(name);
  }
  return [...sizes].sort();
}
