/**
 * ValidatingAdmissionPolicyBinding rules of k8s.io/kubernetes
 * pkg/apis/admissionregistration/validation (1.33): validateValidatingAdmissionPolicyBindingSpec,
 * validateParamRef, validateValidationActions; an update is checked as a create
 * (ValidateValidatingAdmissionPolicyBindingUpdate). Upstream reports the match resources'
 * problems under the misspelled path `spec.matchResouces`, and so does this. Metadata rules
 * are the registry's.
 */
import { validateDns1123Subdomain, validatePathSegmentName } from '../../api/names.js';
import {
  duplicate,
  forbidden,
  invalidValue,
  notSupported,
  required,
  type FieldError,
} from '../../api/validation/field-errors.js';
import { validateLabelSelector } from '../jobs/selector.js';
import { invalidGoList, validateMatchResources } from '../webhook-common/match-resources.validation.js';
import type { ParamRef, ValidatingAdmissionPolicyBinding } from './validatingadmissionpolicybindings.schema.js';

const ACTIONS = ['Audit', 'Deny', 'Warn'];

/** validateParamRef (nothing for an absent one). */
function validateParamRef(pr: ParamRef | null | undefined, at: string): FieldError[] {
  if (!pr) return [];
  const errs: FieldError[] = [];
  const name = pr.name ?? '';
  if (name) {
    for (const m of validatePathSegmentName(name)) errs.push(invalidValue(`${at}.name`, name, m));
    if (pr.selector) errs.push(forbidden(`${at}.name`, 'name and selector are mutually exclusive'));
  }
  if (pr.selector) {
    errs.push(...validateLabelSelector(pr.selector, `${at}.selector`));
    if (name) errs.push(forbidden(`${at}.selector`, 'name and selector are mutually exclusive'));
  }
  if (!name && !pr.selector) errs.push(required(at, 'one of name or selector must be specified'));
  const action = pr.parameterNotFoundAction;
  if (!action) errs.push(required(`${at}.parameterNotFoundAction`));
  else if (action !== 'Deny' && action !== 'Allow')
    errs.push(notSupported(`${at}.parameterNotFoundAction`, action, ['Deny', 'Allow']));
  return errs;
}

/** validateValidationActions: known, once each, not both Deny and Warn, at least one. */
function validateValidationActions(actions: readonly string[], at: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    if (!ACTIONS.includes(a)) errs.push(notSupported(`${at}[${i}]`, a, ACTIONS));
    if (seen.has(a)) errs.push(duplicate(`${at}[${i}]`, a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn'))
    errs.push(
      invalidGoList(
        at,
        'admissionregistration.ValidationAction',
        actions,
        'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ),
    );
  if (!seen.size) errs.push(required(at, 'at least one validation action is required'));
  return errs;
}

/** ValidateValidatingAdmissionPolicyBinding (create and update alike). */
export function validateBinding(binding: ValidatingAdmissionPolicyBinding): FieldError[] {
  const spec = binding.spec ?? {};
  const errs: FieldError[] = [];
  const policyName = spec.policyName ?? '';
  if (!policyName) errs.push(required('spec.policyName'));
  else for (const m of validateDns1123Subdomain(policyName)) errs.push(invalidValue('spec.policyName', policyName, m));
  errs.push(...validateParamRef(spec.paramRef, 'spec.paramRef'));
  errs.push(...validateMatchResources(spec.matchResources, 'spec.matchResouces'));
  errs.push(...validateValidationActions(spec.validationActions ?? [], 'spec.validationActions'));
  return errs;
}
