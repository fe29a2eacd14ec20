/**
 * LimitRange rules of upstream 1.10 pkg/apis/core/validation (ValidateLimitRange and the
 * resource-name checks it calls). Field paths as upstream: `spec.limits[0].max[cpu]`.
 */
import { validateQualifiedName } from '../../api/names.js';
import {
  compareQuantities,
  formatQuantity,
  milliValue,
  quantityOf,
  wholeValue,
  type Quantity,
} from '../../api/quantity.js';
import { duplicate, forbidden, invalidValue, required, type FieldError } from '../../api/validation/field-errors.js';
import {
  goQuantity,
  invalidGo,
  isOvercommitAllowed,
  quantityOfJson,
  validateContainerResourceName,
  validateResourceName,
} from '../../api/validation/resources.js';
import type { LimitRange } from './limitranges.schema.js';

type Limits = Record<string, unknown>;
/** The resource lists of an item. */
type LimitField = 'max' | 'min' | 'default' | 'defaultRequest' | 'maxLimitRequestRatio';

const STANDARD_LIMIT_TYPES = new Set(['Pod', 'Container', 'PersistentVolumeClaim']);

/** Upstream validateLimitRangeTypeName: a qualified name, standard unless it has a domain. */
function validateLimitRangeTypeName(value: string, path: string): FieldError[] {
  const errs = validateQualifiedName(value).map((m) => invalidValue(path, value, m));
  if (errs.length) return errs;
  if (!value.includes('/') && !STANDARD_LIMIT_TYPES.has(value))
    return [invalidValue(path, value, 'must be a standard limit type or fully qualified')];
  return [];
}

/** Upstream validateLimitRangeResourceName: container resources for Pod and Container. */
function validateLimitRangeResourceName(type: string, value: string, path: string): FieldError[] {
  return type === 'Pod' || type === 'Container'
    ? validateContainerResourceName(value, path)
    : validateResourceName(value, path);
}

const entries = (m: Limits | null | undefined): [string, unknown][] => Object.entries(m ?? {});

/** Go's %f: six decimals (Inf/NaN as Go prints them). */
function goFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  return x.toFixed(6);
}

/**
 * Upstream ValidateLimitRange (1.10): each item's type is a known or qualified limit type and
 * unique; resource names suit the type; Pod items have no default/defaultRequest; PVC items
 * bound storage; min <= defaultRequest <= default <= max; maxLimitRequestRatio >= 1 and
 * within max/min; non-overcommittable resources have default == defaultRequest.
 */
export function validateLimitRange(obj: LimitRange): FieldError[] {
  const errs: FieldError[] = [];
  const limits = obj.spec?.limits ?? [];
  const seenTypes = new Set<string>();
  limits.forEach((limit, i) => {
    const at = `spec.limits[${i}]`;
    const type = limit.type ?? '';
    errs.push(...validateLimitRangeTypeName(type, `${at}.type`));
    if (seenTypes.has(type)) errs.push(duplicate(`${at}.type`, type));
    seenTypes.add(type);

    const keys: string[] = [];
    const note = (k: string) => {
      if (!keys.includes(k)) keys.push(k);
    };
    const collect = (field: LimitField, into: Map<string, unknown>) => {
      for (const [k, q] of entries(limit[field])) {
        errs.push(...validateLimitRangeResourceName(type, k, `${at}.${field}[${k}]`));
        note(k);
        into.set(k, q);
      }
    };
    const max = new Map<string, unknown>();
    const min = new Map<string, unknown>();
    const defaults = new Map<string, unknown>();
    const defaultRequests = new Map<string, unknown>();
    const ratios = new Map<string, unknown>();
    collect('max', max);
    collect('min', min);
    if (type === 'Pod') {
      if (entries(limit.default).length)
        errs.push(forbidden(`${at}.default`, "may not be specified when `type` is 'Pod'"));
      if (entries(limit.defaultRequest).length)
        errs.push(forbidden(`${at}.defaultRequest`, "may not be specified when `type` is 'Pod'"));
    } else {
      collect('default', defaults);
      collect('defaultRequest', defaultRequests);
    }
    if (type === 'PersistentVolumeClaim' && !min.has('storage') && !max.has('storage')) {
      errs.push(
        required(`${at}.limits`, 'either minimum or maximum storage value is required, but neither was provided'),
      );
    }
    collect('maxLimitRequestRatio', ratios);

    for (const k of [...keys].sort())
      errs.push(...compareItem(at, k, min.get(k), max.get(k), defaults.get(k), defaultRequests.get(k), ratios.get(k)));
  });
  return errs;
}

/** The per-resource relations of one limit item, in upstream's order. */
function compareItem(
  at: string,
  k: string,
  minRaw: unknown,
  maxRaw: unknown,
  defRaw: unknown,
  defReqRaw: unknown,
  ratioRaw: unknown,
): FieldError[] {
  const errs: FieldError[] = [];
  const min = minRaw === undefined ? undefined : quantityOfJson(minRaw);
  const max = maxRaw === undefined ? undefined : quantityOfJson(maxRaw);
  const def = defRaw === undefined ? undefined : quantityOfJson(defRaw);
  const defReq = defReqRaw === undefined ? undefined : quantityOfJson(defReqRaw);
  const ratio = ratioRaw === undefined ? undefined : quantityOfJson(ratioRaw);
  const s = (q: Quantity) => formatQuantity(q);
  if (min && max && compareQuantities(min, max) > 0) {
    errs.push(
      invalidGo(`${at}.min[${k}]`, goQuantity(minRaw), `min value ${s(min)} is greater than max value ${s(max)}`),
    );
  }
  if (defReq && min && compareQuantities(min, defReq) > 0) {
    errs.push(
      invalidGo(
        `${at}.defaultRequest[${k}]`,
        goQuantity(defReqRaw),
        `min value ${s(min)} is greater than default request value ${s(defReq)}`,
      ),
    );
  }
  if (defReq && max && compareQuantities(defReq, max) > 0) {
    errs.push(
      invalidGo(
        `${at}.defaultRequest[${k}]`,
        goQuantity(defReqRaw),
        `default request value ${s(defReq)} is greater than max value ${s(max)}`,
      ),
    );
  }
  if (defReq && def && compareQuantities(defReq, def) > 0) {
    errs.push(
      invalidGo(
        `${at}.defaultRequest[${k}]`,
        goQuantity(defReqRaw),
        `default request value ${s(defReq)} is greater than default limit value ${s(def)}`,
      ),
    );
  }
  if (def && min && compareQuantities(min, def) > 0) {
    errs.push(
      invalidGo(
        `${at}.default[${k}]`,
        goQuantity(minRaw),
        `min value ${s(min)} is greater than default value ${s(def)}`,
      ),
    );
  }
  if (def && max && compareQuantities(def, max) > 0) {
    errs.push(
      invalidGo(
        `${at}.default[${k}]`,
        goQuantity(maxRaw),
        `default value ${s(def)} is greater than max value ${s(max)}`,
      ),
    );
  }
  if (ratio && compareQuantities(ratio, quantityOf(1)) < 0) {
    errs.push(invalidGo(`${at}.maxLimitRequestRatio[${k}]`, goQuantity(ratioRaw), `ratio ${s(ratio)} is less than 1`));
  }
  if (ratio && min && max) {
    const maxMilli = 2n ** 63n / 1000n;
    let ratioValue = Number(wholeValue(ratio));
    let minValue = wholeValue(min);
    let maxValue = wholeValue(max);
    if (wholeValue(ratio) < maxMilli && minValue < maxMilli && maxValue < maxMilli) {
      ratioValue = Number(milliValue(ratio)) / 1000;
      minValue = milliValue(min);
      maxValue = milliValue(max);
    }
    const limit = Number(maxValue) / Number(minValue);
    if (ratioValue > limit) {
      errs.push(
        invalidGo(
          `${at}.maxLimitRequestRatio[${k}]`,
          goQuantity(ratioRaw),
          `ratio ${s(ratio)} is greater than max/min = ${goFloat(limit)}`,
        ),
      );
    }
  }
  if (!isOvercommitAllowed(k) && def && defReq && compareQuantities(def, defReq) !== 0) {
    errs.push(
      invalidGo(
        `${at}.defaultRequest[${k}]`,
        goQuantity(defReqRaw),
        `default value ${s(def)} must equal to defaultRequest value ${s(defReq)} in ${k}`,
      ),
    );
  }
  return errs;
}
