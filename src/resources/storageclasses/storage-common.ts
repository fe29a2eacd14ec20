/**
 * Rules and messages the storage.k8s.io and discovery.k8s.io kinds share: today's (1.33)
 * wording of field.TooLong, upstream ValidateQualifiedName and ValidateNodeName as field
 * errors, and the identity conversion of a version with the storage version's fields.
 */
import { validateDns1123Subdomain } from '../../api/names.js';
import { invalidValue, type FieldError } from '../../api/validation/field-errors.js';
import { isQualifiedName } from '../../api/core/validation/strings.js';
import type { VersionConversion } from '../../registry/types.js';
import type { ApiObject } from '../../api/object.js';

/** field.TooLong (1.33): `Too long: may not be more than N bytes`. */
export function tooLongBytes(field: string, max: number): FieldError {
  return { reason: 'FieldValueTooLong', field, message: `Too long: may not be more than ${max} bytes` };
}

/** core ValidateQualifiedName: one Invalid per message of IsQualifiedName. */
export function qualifiedName(value: string, field: string): FieldError[] {
  return isQualifiedName(value).map((m) => invalidValue(field, value, m));
}

/** core ValidateNodeName (NameIsDNSSubdomain, no prefix) as Invalid errors at `field`. */
export function nodeName(value: string, field: string): FieldError[] {
  return validateDns1123Subdomain(value).map((m) => invalidValue(field, value, m));
}

/** The total size of a string map's keys and values, as upstream counts it (Go len: bytes). */
export function mapBytes(map: Readonly<Record<string, unknown>> | null | undefined): number {
  let size = 0;
  for (const [k, v] of Object.entries(map ?? {})) size += Buffer.byteLength(k) + Buffer.byteLength(String(v));
  return size;
}

/**
 * A version whose fields are the storage version's (storage.k8s.io v1beta1, the spec's
 * storage.ck.io): only apiVersion changes; `defaults` are the version's own.
 */
export function sameFields(
  apiVersion: string,
  storageVersion: string,
  defaults?: (obj: ApiObject) => void,
): VersionConversion {
  return {
    ...(defaults ? { defaults } : {}),
    toStorage: (obj) => ({ ...obj, apiVersion: storageVersion }),
    fromStorage: (obj) => ({ ...obj, apiVersion }),
  };
}
