/**
 * CertificateSigningRequest rules of upstream pkg/apis/certificates/validation (validateCSR,
 * validateCertificateSigningRequest, validateConditions, validateCertificateSigningRequestUpdate,
 * getValidationOptions; ValidateSignerName of pkg/apis/core/validation). Requests made through
 * v1beta1 keep 1.19-1.21's tolerance (the legacy signer, unknown or duplicate usages, duplicate
 * or empty condition types, any certificate content, replacing a certificate); updates tolerate
 * what the stored object already has, as upstream. What only a subresource may change (the
 * Approved/Denied conditions, the certificate) is checked by the subresources (csr.strategy.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import { validateDns1123Label, validateDns1123Subdomain } from '../../api/names.js';
import {
  duplicate,
  forbidden,
  invalidValue,
  notSupported,
  required,
  tooLong,
  type FieldError,
} from '../../api/validation/field-errors.js';
import { certificateProblem, csrProblem } from './csr-parse.js';
import type { CertificateSigningRequest } from './csr.schema.js';

export const LEGACY_UNKNOWN_SIGNER = 'kubernetes.io/legacy-unknown';
const TRUE_ONLY_TYPES = ['Approved', 'Denied', 'Failed'];

/** Upstream's allValidUsages, as sets.List sorts them. */
export const VALID_USAGES = [
  'any',
  'cert sign',
  'client auth',
  'code signing',
  'content commitment',
  'crl sign',
  'data encipherment',
  'decipher only',
  'digital signature',
  'email protection',
  'encipher only',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'key agreement',
  'key encipherment',
  'microsoft sgc',
  'netscape sgc',
  'ocsp signing',
  's/mime',
  'server auth',
  'signing',
  'timestamping',
];

/** certificateValidationOptions: what a write may do besides the strict rules. */
export interface CsrOptions {
  approval: boolean;
  certificate: boolean;
  resetCertificate: boolean;
  bothApprovedAndDenied: boolean;
  legacySigner: boolean;
  duplicateConditionTypes: boolean;
  emptyConditionType: boolean;
  arbitraryCertificate: boolean;
  unknownUsages: boolean;
  duplicateUsages: boolean;
}

const bytesOf = (b64: string | null | undefined) => Buffer.from(b64 ?? '', 'base64');
const conditionsOf = (csr: CertificateSigningRequest) => csr.status?.conditions ?? [];
const typesOf = (csr: CertificateSigningRequest) => conditionsOf(csr).map((c) => c.type);
const hasDuplicates = (values: readonly string[]) => new Set(values).size !== values.length;

/** getValidationOptions (old = null on create), with the v1beta1 tolerance of 1.19-1.21. */
export function csrOptions(
  csr: CertificateSigningRequest,
  old: CertificateSigningRequest | null,
  v1beta1: boolean,
): CsrOptions {
  const usages = old?.spec.usages ?? [];
  const oldTypes = old ? typesOf(old) : [];
  return {
    approval: false,
    certificate: false,
    resetCertificate: v1beta1,
    bothApprovedAndDenied: oldTypes.includes('Approved') && oldTypes.includes('Denied'),
    legacySigner: v1beta1 || old?.spec.signerName === LEGACY_UNKNOWN_SIGNER,
    duplicateConditionTypes: v1beta1 || hasDuplicates(oldTypes),
    emptyConditionType: v1beta1 || oldTypes.includes(''),
    arbitraryCertificate:
      v1beta1 ||
      (old !== null &&
        (bytesOf(csr.status?.certificate).equals(bytesOf(old.status?.certificate)) ||
          certificateProblem(bytesOf(old.status?.certificate)) !== null)),
    unknownUsages: v1beta1 || usages.some((u) => !VALID_USAGES.includes(u)),
    duplicateUsages: v1beta1 || hasDuplicates(usages),
  };
}

/** Go's `%#v` of a []byte, as field.Invalid prints spec.request. */
export function goBytes(bytes: Buffer): string {
  return `[]byte{${[...bytes].map((b) => `0x${b.toString(16)}`).join(', ')}}`;
}

/** apivalidation.ValidateSignerName. */
export function validateSignerName(field: string, name: string): FieldError[] {
  if (!name) return [required(field)];
  const segments = name.split('/');
  if (segments.length !== 2)
    return [
      invalidValue(field, name, "must be a fully qualified domain and path of the form 'example.com/signer-name'"),
    ];
  const [domain, path] = segments;
  const errs: FieldError[] = [];
  if (domain.length > 253) errs.push(tooLong(field, '', 253));
  const labels = domain.split('.');
  for (const label of labels) {
    const msgs = validateDns1123Label(label);
    if (msgs.length) {
      errs.push(...msgs.map((m) => invalidValue(field, domain, `validating label ${JSON.stringify(label)}: ${m}`)));
      break;
    }
  }
  if (labels.length < 2)
    errs.push(invalidValue(field, domain, 'should be a domain with at least two segments separated by dots'));
  for (const label of path.split('.')) {
    const msgs = validateDns1123Subdomain(label);
    if (msgs.length) {
      errs.push(...msgs.map((m) => invalidValue(field, path, `validating label ${JSON.stringify(label)}: ${m}`)));
      break;
    }
  }
  if (name.length > 253 + 253 + 63 + 2) errs.push(tooLong(field, '', 253 + 253 + 63 + 2));
  return errs;
}

/** validateConditions. */
function validateConditions(csr: CertificateSigningRequest, opts: CsrOptions): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditionsOf(csr).forEach((c, i) => {
    const at = `status.conditions[${i}]`;
    if (!opts.emptyConditionType && !c.type) errs.push(required(`${at}.type`));
    const allowed = TRUE_ONLY_TYPES.includes(c.type) ? ['True'] : ['False', 'True', 'Unknown'];
    if (!c.status) errs.push(required(`${at}.status`));
    else if (!allowed.includes(c.status)) errs.push(notSupported(`${at}.status`, c.status, allowed));
    if (!opts.bothApprovedAndDenied) {
      const clash = 'Approved and Denied conditions are mutually exclusive';
      if (c.type === 'Approved') {
        approved = true;
        if (denied) errs.push(invalidValue(`${at}.type`, c.type, clash));
      } else if (c.type === 'Denied') {
        denied = true;
        if (approved) errs.push(invalidValue(`${at}.type`, c.type, clash));
      }
    }
    if (!opts.duplicateConditionTypes) {
      if (seen.has(c.type)) errs.push(duplicate(`${at}.type`, c.type));
      seen.add(c.type);
    }
  });
  return errs;
}

/** validateCertificateSigningRequest. */
export function validateCsr(csr: CertificateSigningRequest, opts: CsrOptions): FieldError[] {
  const errs: FieldError[] = [];
  const spec = csr.spec;
  const request = bytesOf(spec.request);
  const problem = csrProblem(request);
  if (problem)
    errs.push({
      ...invalidValue('spec.request', '', problem),
      message: `Invalid value: ${goBytes(request)}: ${problem}`,
    });
  const usages = spec.usages ?? [];
  if (!usages.length) errs.push(required('spec.usages'));
  if (!opts.unknownUsages)
    usages.forEach((u, i) => {
      if (!VALID_USAGES.includes(u)) errs.push(notSupported(`spec.usages[${i}]`, u, VALID_USAGES));
    });
  if (!opts.duplicateUsages)
    usages.forEach((u, i) => {
      if (usages.indexOf(u) < i) errs.push(duplicate(`spec.usages[${i}]`, u));
    });
  const signer = spec.signerName ?? '';
  if (!opts.legacySigner && signer === LEGACY_UNKNOWN_SIGNER)
    errs.push(invalidValue('spec.signerName', signer, 'the legacy signerName is not allowed via this API version'));
  else errs.push(...validateSignerName('spec.signerName', signer));
  if (typeof spec.expirationSeconds === 'number' && spec.expirationSeconds < 600)
    errs.push(
      invalidValue(
        'spec.expirationSeconds',
        spec.expirationSeconds,
        'may not specify a duration less than 600 seconds (10 minutes)',
      ),
    );
  errs.push(...validateConditions(csr, opts));
  if (!opts.arbitraryCertificate) {
    const bad = certificateProblem(bytesOf(csr.status?.certificate));
    if (bad) errs.push(invalidValue('status.certificate', '<certificate data>', bad));
  }
  return errs;
}

const ofType = (csr: CertificateSigningRequest, type: string) => conditionsOf(csr).filter((c) => c.type === type);

/** validateCertificateSigningRequestUpdate (metadata update rules are the registry's). */
export function validateCsrUpdate(
  csr: CertificateSigningRequest,
  old: CertificateSigningRequest,
  opts: CsrOptions,
): FieldError[] {
  const errs = validateCsr(csr, opts);
  for (const t of TRUE_ONLY_TYPES)
    if (ofType(csr, t).length < ofType(old, t).length)
      errs.push(forbidden('status.conditions', `updates may not remove a condition of type ${JSON.stringify(t)}`));
  if (!opts.approval)
    for (const t of ['Approved', 'Denied']) {
      const [before, after] = [ofType(old, t), ofType(csr, t)];
      if (after.length > before.length)
        errs.push(forbidden('status.conditions', `updates may not add a condition of type ${JSON.stringify(t)}`));
      else if (after.length === before.length && !isDeepStrictEqual(before, after))
        errs.push(
          forbidden(
            'status.conditions',
            `updates may not modify a condition of type ${JSON.stringify(t)}\n${JSON.stringify(before)} -> ${JSON.stringify(after)}`,
          ),
        );
    }
  if (!bytesOf(csr.status?.certificate).equals(bytesOf(old.status?.certificate))) {
    if (!opts.certificate) errs.push(forbidden('status.certificate', 'updates may not set certificate content'));
    else if (!opts.resetCertificate && bytesOf(old.status?.certificate).length > 0)
      errs.push(forbidden('status.certificate', 'updates may not modify existing certificate content'));
  }
  return errs;
}
