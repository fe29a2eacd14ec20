/**
 * APIService rules of k8s.io/kube-aggregator pkg/apis/apiregistration/validation
 * (ValidateAPIService, ValidateAPIServiceUpdate, ValidateAPIServiceStatus). The name's path
 * segment rules are the row's validateName; that it is `<version>.<group>` is checked here.
 */
import { validateDns1035Label, validateDns1123Subdomain, validatePathSegmentName } from '../../api/names.js';
import { isValidPortNum } from '../../api/validation/network.js';
import { invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import type { APIService } from './apiservices.schema.js';

/** ValidateAPIService. */
export function validateApiService(obj: APIService): FieldError[] {
  const spec = obj.spec ?? { groupPriorityMinimum: 0, versionPriority: 0 };
  const group = spec.group ?? '';
  const version = spec.version ?? '';
  const errs: FieldError[] = [];
  const name = obj.metadata.name ?? '';
  const requiredName = `${version}.${group}`;
  if (name && !validatePathSegmentName(name).length && name !== requiredName)
    errs.push(
      invalidValue('metadata.name', name, `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(requiredName)}`),
    );
  if (!group && version !== 'v1')
    errs.push(required('spec.group', 'only v1 may have an empty group and it better be legacy kube'));
  if (group) for (const m of validateDns1123Subdomain(group)) errs.push(invalidValue('spec.group', group, m));
  for (const m of validateDns1035Label(version)) errs.push(invalidValue('spec.version', version, m));
  if (spec.groupPriorityMinimum <= 0 || spec.groupPriorityMinimum > 20000)
    errs.push(
      invalidValue('spec.groupPriorityMinimum', spec.groupPriorityMinimum, 'must be positive and less than 20000'),
    );
  if (spec.versionPriority <= 0 || spec.versionPriority > 1000)
    errs.push(invalidValue('spec.versionPriority', spec.versionPriority, 'must be positive and less than 1000'));
  const caBytes = Buffer.from(spec.caBundle ?? '', 'base64').length;
  if (!spec.service) {
    if (caBytes)
      errs.push(invalidValue('spec.caBundle', `${caBytes} bytes`, 'local APIServices may not have a caBundle'));
    if (spec.insecureSkipTLSVerify)
      errs.push(
        invalidValue('spec.insecureSkipTLSVerify', true, 'local APIServices may not have insecureSkipTLSVerify'),
      );
    return errs;
  }
  if (!spec.service.namespace) errs.push(required('spec.service.namespace'));
  if (!spec.service.name) errs.push(required('spec.service.name'));
  const port = spec.service.port ?? 0;
  const portErrs = isValidPortNum(port);
  if (portErrs.length) errs.push(invalidValue('spec.service.port', port, `port is not valid: ${portErrs.join(', ')}`));
  if (spec.insecureSkipTLSVerify && caBytes)
    errs.push(invalidValue('spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present'));
  return errs;
}

/** ValidateAPIServiceStatus. */
export function validateApiServiceStatus(obj: APIService): FieldError[] {
  const allowed = ['True', 'False', 'Unknown'];
  return (obj.status?.conditions ?? []).flatMap((c, i) =>
    allowed.includes(c.status) ? [] : [notSupported(`status.conditions[${i}].status`, c.status, allowed)],
  );
}
