/**
 * A CustomResourceDefinition's conversion settings (k8s.io/apiextensions-apiserver
 * pkg/apis/apiextensions/validation/validation.go validateCustomResourceConversion and
 * validateConversionReviewVersions, 1.33), on the internal form: strategy None or Webhook; a
 * webhook needs exactly one of url and service, a valid CA bundle (once Established) and
 * ConversionReview versions including one this server understands; None forbids both.
 */
import { validateDns1035Label } from '../../api/names.js';
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import { goSlice, invalidGo } from '../../api/validation/resources.js';
import type { InternalConversion } from './internal.js';
import { listOf } from './schema-walk.js';
import { validateCABundle, validateWebhookService, validateWebhookUrl } from './webhook-client-validation.js';

/** validationOptions of the conversion rules. */
export interface ConversionRuleOptions {
  readonly requireRecognizedConversionReviewVersion: boolean;
  readonly allowInvalidCABundle: boolean;
}

/** `required` on an empty value, else NotSupported outside `accepted` (validateEnumStrings). */
export function enumString(at: string, value: string, accepted: readonly string[]): FieldError[] {
  if (!value) return [required(at)];
  return accepted.includes(value) ? [] : [notSupported(at, value, accepted)];
}

/** The ConversionReview versions this server (and the one before it) understands. */
export const ACCEPTED_CONVERSION_REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** validateConversionReviewVersions. */
function reviewVersions(versions: readonly string[], requireRecognized: boolean, at: string): FieldError[] {
  if (!versions.length) return [required(at)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) return void errs.push(invalidValue(`${at}[${i}]`, v, 'duplicate version'));
    seen.add(v);
    for (const m of validateDns1035Label(v)) errs.push(invalidValue(`${at}[${i}]`, v, m));
    if (ACCEPTED_CONVERSION_REVIEW_VERSIONS.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted)
    errs.push(
      invalidGo(
        at,
        goSlice('string', versions),
        `must include at least one of ${ACCEPTED_CONVERSION_REVIEW_VERSIONS.join(', ')}`,
      ),
    );
  return errs;
}

/** validateCustomResourceConversion. */
export function validateConversion(
  conversion: InternalConversion | null | undefined,
  opts: ConversionRuleOptions,
  at: string,
): FieldError[] {
  if (!conversion) return [];
  const errs = enumString(`${at}.strategy`, conversion.strategy, ['None', 'Webhook']);
  const cc = conversion.webhookClientConfig;
  const ccAt = `${at}.webhookClientConfig`;
  if (conversion.strategy === 'Webhook') {
    if (!cc) errs.push(required(ccAt, 'required when strategy is set to Webhook'));
    else {
      if ((cc.url == null) === (cc.service == null))
        errs.push(required(ccAt, 'exactly one of url or service is required'));
      else if (cc.url != null) errs.push(...validateWebhookUrl(`${ccAt}.url`, cc.url));
      else if (cc.service)
        // Upstream passes the name as the namespace and the namespace as the name.
        errs.push(
          ...validateWebhookService(
            `${ccAt}.service`,
            cc.service.name,
            cc.service.namespace,
            cc.service.path,
            cc.service.port,
          ),
        );
      if (cc.caBundle && !opts.allowInvalidCABundle) errs.push(...validateCABundle(`${ccAt}.caBundle`, cc.caBundle));
    }
    errs.push(
      ...reviewVersions(
        listOf(conversion.conversionReviewVersions),
        opts.requireRecognizedConversionReviewVersion,
        `${at}.conversionReviewVersions`,
      ),
    );
  } else {
    if (cc) errs.push(forbidden(ccAt, 'should not be set when strategy is not set to Webhook'));
    if (listOf(conversion.conversionReviewVersions).length)
      errs.push(forbidden(`${at}.conversionReviewVersions`, 'should not be set when strategy is not set to Webhook'));
  }
  return errs;
}
