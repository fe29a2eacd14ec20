/**
 * Name and label rules from upstream k8s.io/apimachinery pkg/util/validation/validation.go and
 * pkg/api/validation/path (path segment names). Each validator returns a list of messages
 * (empty = valid), worded as upstream.
 */

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const QUALIFIED_NAME_PART = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE = '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?';

const dns1123LabelRe = new RegExp(`^${DNS1123_LABEL}$`);
const dns1123SubdomainRe = new RegExp(`^${DNS1123_SUBDOMAIN}$`);
const qualifiedNameRe = new RegExp(`^${QUALIFIED_NAME_PART}$`);
const labelValueRe = new RegExp(`^${LABEL_VALUE}$`);
const dns1035LabelRe = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

function maxLen(n: number): string {
  return `must be no more than ${n} characters`;
}

/** A validator: at most `max` characters, matching `re`, else `message`. */
function rule(max: number, re: RegExp, message: string): (value: string) => string[] {
  return (value) => {
    const errs: string[] = [];
    if (value.length > max) errs.push(maxLen(max));
    if (!re.test(value)) errs.push(message);
    return errs;
  };
}

/** DNS-1123 label (namespaces): at most 63 characters. */
export const validateDns1123Label = rule(
  63,
  dns1123LabelRe,
  `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '${DNS1123_LABEL}')`,
);

/** DNS-1123 subdomain (most kinds): at most 253 characters. */
export const validateDns1123Subdomain = rule(
  253,
  dns1123SubdomainRe,
  `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${DNS1123_SUBDOMAIN}')`,
);

/** DNS-1035 label (services): at most 63 characters, starting with a letter. */
export const validateDns1035Label = rule(
  63,
  dns1035LabelRe,
  `a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
);

/** Qualified name (label and annotation keys): optional DNS subdomain prefix and '/', name <= 63. */
export function validateQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0];
  else if (parts.length === 2) {
    const [prefix] = parts;
    name = parts[1];
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...validateDns1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [
      `a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '${QUALIFIED_NAME_PART}') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push(`name part ${maxLen(63)}`);
  if (name.length > 0 && !qualifiedNameRe.test(name)) {
    errs.push(
      `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '${QUALIFIED_NAME_PART}')`,
    );
  }
  return errs;
}

/** Label value: empty or <= 63 characters of the qualified-name alphabet. */
export const validateLabelValue = rule(
  63,
  labelValueRe,
  `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '${LABEL_VALUE}')`,
);

/** Path-segment rules for names used in URLs and keys (pkg/api/validation/path). */
export function validatePathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  const errs: string[] = [];
  for (const bad of ['/', '%']) if (name.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
}
