/**
 * ControllerRevision rules of today's upstream pkg/apis/apps/validation
 * (ValidateControllerRevisionCreate: data present and a JSON object, revision not negative;
 * ValidateControllerRevisionUpdate: data unchanged). Metadata rules are common
 * (registry/metadata.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import { nonNegative } from '../../api/core/validation/strings.js';
import { required, type FieldError } from '../../api/validation/field-errors.js';
import { invalidGo } from '../../api/validation/resources.js';
import type { ControllerRevision } from './controllerrevisions.schema.js';

/** What Go's encoding/json calls a JSON value's type in an UnmarshalTypeError. */
function goJsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  return typeof value === 'boolean' ? 'bool' : typeof value === 'number' ? 'number' : 'string';
}

/** upstream validateControllerRevision: revision not negative. */
const revisionRules = (obj: ControllerRevision): FieldError[] => nonNegative(obj.revision ?? 0, 'revision');

/** upstream ValidateControllerRevisionCreate. */
export function validateControllerRevision(obj: ControllerRevision): FieldError[] {
  const errs = revisionRules(obj);
  const data = obj.data;
  if (data === undefined || data === null) errs.push(required('data', 'data is mandatory'));
  else if (typeof data !== 'object' || Array.isArray(data))
    errs.push(
      invalidGo(
        'data',
        '"<value omitted>"',
        `error parsing data: json: cannot unmarshal ${goJsonType(data)} into Go value of type map[string]interface {}`,
      ),
    );
  return errs;
}

/** Go's `%#v` of a runtime.RawExtension holding `data` as JSON bytes. */
function goRawExtension(data: unknown): string {
  const bytes = [...Buffer.from(JSON.stringify(data ?? null))].map((b) => `0x${b.toString(16)}`);
  return `runtime.RawExtension{Raw:[]uint8{${bytes.join(', ')}}, Object:runtime.Object(nil)}`;
}

/** upstream ValidateControllerRevisionUpdate: the revision rule, and data immutable. */
export function validateControllerRevisionUpdate(obj: ControllerRevision, old: ControllerRevision): FieldError[] {
  const errs = revisionRules(obj);
  if (obj.data === undefined || obj.data === null) errs.push(required('data', 'data is mandatory'));
  if (!isDeepStrictEqual(obj.data ?? null, old.data ?? null))
    errs.push(invalidGo('data', goRawExtension(obj.data), 'field is immutable'));
  return errs;
}
