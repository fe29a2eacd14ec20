/**
 * PriorityLevelConfiguration rules of k8s.io/kubernetes pkg/apis/flowcontrol/validation
 * validation.go (1.33): ValidatePriorityLevelConfiguration (the spec, the mandatory levels'
 * fixed specs, the status), its update (the same rules on the new object) and its status.
 * Shuffle sharding limits from k8s.io/apiserver pkg/util/shufflesharding (MaxHashBits,
 * RequiredEntropyBits). Since the ZeroLimitedNominalConcurrencyShares gate went away (1.32) a
 * Limited level's nominalConcurrencyShares may be 0. Upstream prints a whole spec's value with
 * Go's `%#v` (pointer addresses included); it is shown here as JSON.
 */
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import { EXEMPT } from '../flowcontrol-common/names.js';
import { specsEqual } from '../flowcontrol-common/spec-equality.js';
import { validateConditions } from '../flowcontrol-common/status.js';
import { mandatoryPriorityLevel } from './bootstrap.js';
import { defaultPriorityLevelConfiguration } from './prioritylevelconfigurations.defaults.js';
import type {
  LimitedPriorityLevelConfiguration,
  PriorityLevelConfiguration,
  PriorityLevelConfigurationSpec,
  QueuingConfiguration,
} from './prioritylevelconfigurations.schema.js';

/** priorityLevelConfigurationQueuingMaxQueues: 10^7. */
export const MAX_QUEUES = 10_000_000;
/** shufflesharding.MaxHashBits. */
export const MAX_HASH_BITS = 60;
const TYPES = ['Exempt', 'Limited'] as const;
const LIMIT_RESPONSE_TYPES = ['Queue', 'Reject'] as const;

/** shufflesharding.RequiredEntropyBits: ceil(log2(deckSize) x handSize). */
export function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(Math.log2(deckSize) * handSize);
}

const nonNegative = (value: number | null | undefined, path: string): FieldError[] =>
  typeof value === 'number' && value < 0 ? [invalidValue(path, value, 'must be a non-negative integer')] : [];
const percent = (value: number | null | undefined, path: string): FieldError[] =>
  typeof value === 'number' && (value < 0 || value > 100)
    ? [invalidValue(path, value, 'must be between 0 and 100, inclusive')]
    : [];

/** ValidatePriorityLevelQueuingConfiguration. */
function validateQueuing(q: QueuingConfiguration, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const queues = q.queues ?? 0;
  const handSize = q.handSize ?? 0;
  const queueLengthLimit = q.queueLengthLimit ?? 0;
  if (queueLengthLimit <= 0) errs.push(invalidValue(`${path}.queueLengthLimit`, queueLengthLimit, 'must be positive'));
  if (queues <= 0) errs.push(invalidValue(`${path}.queues`, queues, 'must be positive'));
  else if (queues > MAX_QUEUES)
    errs.push(invalidValue(`${path}.queues`, queues, `must not be greater than ${MAX_QUEUES}`));
  const hand = `${path}.handSize`;
  if (handSize <= 0) errs.push(invalidValue(hand, handSize, 'must be positive'));
  else if (handSize > queues) errs.push(invalidValue(hand, handSize, `should not be greater than queues (${queues})`));
  else if (requiredEntropyBits(queues, handSize) > MAX_HASH_BITS)
    errs.push(
      invalidValue(
        hand,
        handSize,
        `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${MAX_HASH_BITS}`,
      ),
    );
  return errs;
}

/** ValidateLimitedPriorityLevelConfiguration with ValidateLimitResponse. */
function validateLimited(limited: LimitedPriorityLevelConfiguration, path: string): FieldError[] {
  const errs = nonNegative(limited.nominalConcurrencyShares, `${path}.nominalConcurrencyShares`);
  const response = limited.limitResponse;
  const at = `${path}.limitResponse`;
  switch (response?.type) {
    case 'Reject':
      if (response.queuing)
        errs.push(forbidden(`${at}.queuing`, 'must be nil if limited.limitResponse.type is not Limited'));
      break;
    case 'Queue':
      if (response.queuing) errs.push(...validateQueuing(response.queuing, `${at}.queuing`));
      else errs.push(required(`${at}.queuing`, 'must not be empty if limited.limitResponse.type is Limited'));
      break;
    default:
      errs.push(notSupported(`${at}.type`, response?.type ?? '', LIMIT_RESPONSE_TYPES));
  }
  errs.push(...percent(limited.lendablePercent, `${path}.lendablePercent`));
  const borrowing = limited.borrowingLimitPercent;
  if (typeof borrowing === 'number' && borrowing < 0)
    errs.push(invalidValue(`${path}.borrowingLimitPercent`, borrowing, 'if specified, must be a non-negative integer'));
  return errs;
}

/** ValidatePriorityLevelConfigurationSpec of the level named `name`. */
function validateSpec(spec: PriorityLevelConfigurationSpec | null | undefined, name: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = spec?.type ?? '';
  if ((name === EXEMPT) !== (type === 'Exempt'))
    errs.push(invalidValue('spec.type', type, "type must be 'Exempt' if and only if name is 'exempt'"));
  switch (type) {
    case 'Exempt':
      if (spec?.limited) errs.push(forbidden('spec.limited', 'must be nil if the type is not Limited'));
      if (spec?.exempt)
        errs.push(
          ...nonNegative(spec.exempt.nominalConcurrencyShares, 'spec.exempt.nominalConcurrencyShares'),
          ...percent(spec.exempt.lendablePercent, 'spec.exempt.lendablePercent'),
        );
      break;
    case 'Limited':
      if (spec?.exempt) errs.push(forbidden('spec.exempt', 'must be nil if the type is Limited'));
      if (spec?.limited) errs.push(...validateLimited(spec.limited, 'spec.limited'));
      else errs.push(required('spec.limited', 'must not be empty when type is Limited'));
      break;
    default:
      errs.push(notSupported('spec.type', type, TYPES));
  }
  return errs;
}

/**
 * ValidateIfMandatoryPriorityLevelConfigurationObject: `catch-all` keeps its fixed spec;
 * `exempt` keeps it except for `spec.exempt`, which an operator may tune.
 */
function validateIfMandatory(obj: PriorityLevelConfiguration): FieldError[] {
  const name = obj.metadata.name ?? '';
  const mandatory = mandatoryPriorityLevel(name);
  if (!mandatory) return [];
  const fixed: PriorityLevelConfiguration = structuredClone(mandatory);
  defaultPriorityLevelConfiguration(fixed);
  if (name === EXEMPT) {
    const have = { ...obj.spec, exempt: fixed.spec?.exempt };
    return specsEqual(have, fixed.spec)
      ? []
      : [
          invalidValue(
            'spec',
            obj.spec ?? {},
            `spec of '${name}' except the 'spec.exempt' field must equal the fixed value`,
          ),
        ];
  }
  return specsEqual(obj.spec, fixed.spec)
    ? []
    : [invalidValue('spec', obj.spec ?? {}, `spec of '${name}' must equal the fixed value`)];
}

/** ValidatePriorityLevelConfiguration (the metadata rules are common to every kind). */
export function validatePriorityLevelConfiguration(obj: PriorityLevelConfiguration): FieldError[] {
  return [...validateSpec(obj.spec, obj.metadata.name ?? ''), ...validateIfMandatory(obj), ...validateConditions(obj)];
}

/** ValidatePriorityLevelConfigurationUpdate: the rules of a new object, on the updated one. */
export function validatePriorityLevelConfigurationUpdate(obj: PriorityLevelConfiguration): FieldError[] {
  return validatePriorityLevelConfiguration(obj);
}
