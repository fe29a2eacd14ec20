/**
 * The field manager of a write and its validation (k8s.io/apiserver
 * `pkg/endpoints/handlers/create.go` managerOrUserAgent / prefixFromUserAgent,
 * k8s.io/apimachinery `pkg/apis/meta/v1/validation` ValidateFieldManager, ValidatePatchOptions).
 *
 * Without a `fieldManager` query parameter a non-apply write is recorded under its
 * User-Agent's product (what precedes the first `/`: `kubectl-client-side-apply`,
 * `kubectl-edit`, `kube-controller-manager`), without unprintable characters, cut to 128 bytes.
 * Returns plain field problems; the caller answers 422 on `<Kind>Options.meta.k8s.io`.
 */
import { goQuote, isPrintable } from './go-format.js';

/** upstream FieldManagerMaxLength (bytes). */
export const FIELD_MANAGER_MAX_LENGTH = 128;

const utf8Length = (s: string) => new TextEncoder().encode(s).length;

/** The manager name a User-Agent gives (upstream prefixFromUserAgent). */
export function managerFromUserAgent(userAgent: string): string {
  let out = '';
  let bytes = 0;
  for (const ch of userAgent.split('/')[0]) {
    if (!isPrintable(ch)) continue;
    const n = utf8Length(ch);
    if (bytes + n > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** The `fieldManager` query parameter when set, else the User-Agent's (upstream managerOrUserAgent). */
export function managerOrUserAgent(fieldManager: string | undefined, userAgent: string | undefined): string {
  return fieldManager ? fieldManager : managerFromUserAgent(userAgent ?? '');
}

/** One problem with the options, as a Status cause. */
export interface OptionProblem {
  readonly reason: 'FieldValueTooLong' | 'FieldValueInvalid' | 'FieldValueRequired' | 'FieldValueForbidden';
  readonly field: string;
  readonly message: string;
}

/**
 * Problems with a `fieldManager` value (upstream ValidateFieldManager): longer than 128 bytes,
 * or any unprintable character (one problem each, with its byte position).
 */
export function validateFieldManager(fieldManager: string): OptionProblem[] {
  const problems: OptionProblem[] = [];
  if (utf8Length(fieldManager) > FIELD_MANAGER_MAX_LENGTH) {
    problems.push({
      reason: 'FieldValueTooLong',
      field: 'fieldManager',
      message: `Too long: may not be more than ${FIELD_MANAGER_MAX_LENGTH} bytes`,
    });
  }
  let at = 0;
  for (const ch of fieldManager) {
    if (!isPrintable(ch)) {
      const cp = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      problems.push({
        reason: 'FieldValueInvalid',
        field: 'fieldManager',
        message: `Invalid value: ${goQuote(fieldManager)}: invalid character U+${cp} (at position ${at})`,
      });
    }
    at += utf8Length(ch);
  }
  return problems;
}

/**
 * Problems with a PATCH's `fieldManager` and `force` (upstream ValidatePatchOptions): apply
 * needs a field manager; `force` is only for apply; then ValidateFieldManager.
 */
export function validatePatchManagerOptions(
  isApply: boolean,
  fieldManager: string | undefined,
  force: boolean | undefined,
): OptionProblem[] {
  const problems: OptionProblem[] = [];
  if (isApply && !fieldManager)
    problems.push({
      reason: 'FieldValueRequired',
      field: 'fieldManager',
      message: 'Required value: is required for apply patch',
    });
  if (!isApply && force !== undefined)
    problems.push({
      reason: 'FieldValueForbidden',
      field: 'force',
      message: 'Forbidden: may not be specified for non-apply patch',
    });
  return [...problems, ...validateFieldManager(fieldManager ?? '')];
}
