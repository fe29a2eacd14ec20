/**
 * FlowSchema rules of k8s.io/kubernetes pkg/apis/flowcontrol/validation/validation.go (1.33):
 * ValidateFlowSchema (the spec, the mandatory schemas' fixed specs, the status),
 * ValidateFlowSchemaUpdate (the same rules on the new object) and ValidateFlowSchemaStatus.
 * The name is a DNS-1123 subdomain (the row's default name rule); the rules and subjects are
 * checked in flowschemas.rules.ts. Upstream prints a whole spec's value with Go's `%#v`
 * (pointer addresses included); it is shown here as JSON.
 */
import { validateDns1123Subdomain } from '../../api/names.js';
import { invalidValue, required, type FieldError } from '../../api/validation/field-errors.js';
import { notSupportedGo } from '../../api/validation/resources.js';
import { EXEMPT } from '../flowcontrol-common/names.js';
import { specsEqual } from '../flowcontrol-common/spec-equality.js';
import { validateConditions } from '../flowcontrol-common/status.js';
import { mandatoryFlowSchema } from './bootstrap.js';
import { defaultFlowSchema } from './flowschemas.defaults.js';
import { validateRule } from './flowschemas.rules.js';
import type { FlowSchema, FlowSchemaSpec } from './flowschemas.schema.js';

/** FlowSchemaMaxMatchingPrecedence. */
export const MAX_MATCHING_PRECEDENCE = 10000;
const DISTINGUISHER_METHODS = ['ByNamespace', 'ByUser'] as const;

/** ValidateFlowSchemaSpec of the schema named `name`. */
function validateSpec(name: string, spec: FlowSchemaSpec): FieldError[] {
  const errs: FieldError[] = [];
  const precedence = spec.matchingPrecedence ?? 0;
  const at = 'spec.matchingPrecedence';
  if (precedence <= 0) errs.push(invalidValue(at, precedence, 'must be a positive value'));
  if (precedence > MAX_MATCHING_PRECEDENCE)
    errs.push(invalidValue(at, precedence, `must not be greater than ${MAX_MATCHING_PRECEDENCE}`));
  if (precedence === 1 && name !== EXEMPT)
    errs.push(invalidValue(at, precedence, "only the schema named 'exempt' may have matchingPrecedence 1"));
  const method = spec.distinguisherMethod;
  if (method && !(DISTINGUISHER_METHODS as readonly string[]).includes(method.type))
    // Upstream passes the struct, which Go prints as `flowcontrol.FlowDistinguisherMethod{Type:"..."}`.
    errs.push(
      notSupportedGo(
        'spec.distinguisherMethod.type',
        `flowcontrol.FlowDistinguisherMethod{Type:${JSON.stringify(method.type)}}`,
        DISTINGUISHER_METHODS,
      ),
    );
  const level = spec.priorityLevelConfiguration?.name ?? '';
  const levelPath = 'spec.priorityLevelConfiguration.name';
  if (level) for (const m of validateDns1123Subdomain(level)) errs.push(invalidValue(levelPath, level, m));
  else errs.push(required(levelPath, 'must reference a priority level'));
  (spec.rules ?? []).forEach((rule, i) => errs.push(...validateRule(rule, `spec.rules[${i}]`)));
  return errs;
}

/** The fixed spec of a mandatory schema (`exempt`, `catch-all`): any other is refused. */
function validateIfMandatory(obj: FlowSchema): FieldError[] {
  const name = obj.metadata.name ?? '';
  const mandatory = mandatoryFlowSchema(name);
  if (!mandatory) return [];
  const fixed: FlowSchema = structuredClone(mandatory);
  defaultFlowSchema(fixed);
  return specsEqual(obj.spec, fixed.spec)
    ? []
    : [invalidValue('spec', obj.spec ?? {}, `spec of '${name}' must equal the fixed value`)];
}

/** ValidateFlowSchema (the metadata rules are common to every kind). */
export function validateFlowSchema(obj: FlowSchema): FieldError[] {
  const spec = obj.spec ?? { priorityLevelConfiguration: { name: '' } };
  return [...validateSpec(obj.metadata.name ?? '', spec), ...validateIfMandatory(obj), ...validateConditions(obj)];
}

/** ValidateFlowSchemaUpdate: the rules of a new object, on the updated one. */
export function validateFlowSchemaUpdate(obj: FlowSchema): FieldError[] {
  return validateFlowSchema(obj);
}
