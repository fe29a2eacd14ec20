/**
 * VolumeAttachment rules of upstream pkg/apis/storage/validation/validation.go (1.33:
 * ValidateVolumeAttachment, ValidateVolumeAttachmentV1 for storage.k8s.io/v1 writes,
 * ValidateVolumeAttachmentUpdate), with the inline volume spec's rules of core
 * ValidatePersistentVolumeSpec (validateInlinePersistentVolumeSpec=true) and core
 * ValidateCSIDriverName.
 */
import { isDeepStrictEqual } from 'node:util';
import { validateDns1123Subdomain } from '../../api/names.js';
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import { fieldsOf } from '../../api/core/validation/strings.js';
import { sourceChecks } from '../persistentvolumes/persistentvolume-sources.js';
import { mapBytes, nodeName, tooLongBytes } from '../storageclasses/storage-common.js';
import type { VolumeAttachment } from './volumeattachments.schema.js';

const MAX_METADATA_SIZE = 256 * 1024;
const MAX_ERROR_MESSAGE = 1024;
const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const EXACTLY_ONE = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';

type Source = NonNullable<NonNullable<VolumeAttachment['spec']>['source']>;
type InlineSpec = NonNullable<Source['inlineVolumeSpec']>;
type VolumeError = NonNullable<NonNullable<VolumeAttachment['status']>['attachError']>;

const present = <T>(v: T): v is NonNullable<T> => v !== undefined && v !== null;

/** core ValidateCSIDriverName: required, at most 63 bytes, a (lower-cased) DNS subdomain. */
export function validateCsiDriverName(name: string, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!name) errs.push(required(field));
  if (Buffer.byteLength(name) > 63) errs.push(tooLongBytes(field, 63));
  for (const m of validateDns1123Subdomain(name.toLowerCase())) errs.push(invalidValue(field, name, m));
  return errs;
}

/** The inline rules of ValidatePersistentVolumeSpec: no claimRef or capacity, a csi source, access modes. */
function validateInlineSpec(spec: InlineSpec, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (present(spec.claimRef))
    errs.push(forbidden(`${field}.claimRef`, 'may not be specified in the context of inline volumes'));
  if (Object.keys(spec.capacity ?? {}).length)
    errs.push(forbidden(`${field}.capacity`, 'may not be specified in the context of inline volumes'));
  if (!present(spec.csi)) errs.push(required(`${field}.csi`, 'has to be specified in the context of inline volumes'));
  const modes = spec.accessModes ?? [];
  if (!modes.length) errs.push(required(`${field}.accessModes`));
  for (const m of modes)
    if (!ACCESS_MODES.includes(m)) errs.push(notSupported(`${field}.accessModes`, m, ACCESS_MODES));
  if (present(spec.csi)) errs.push(...sourceChecks.csi!(fieldsOf(spec.csi), `${field}.csi`, { metadata: {} }));
  return errs;
}

/** validateVolumeAttachmentSource. */
function validateSource(source: Source, field: string): FieldError[] {
  const pv = source.persistentVolumeName;
  const inline = source.inlineVolumeSpec;
  if (!present(inline) && !present(pv)) return [required(field, EXACTLY_ONE)];
  if (present(inline) && present(pv)) return [forbidden(field, EXACTLY_ONE)];
  if (present(pv))
    return pv === '' ? [required(`${field}.persistentVolumeName`, 'must specify non empty persistentVolumeName')] : [];
  return validateInlineSpec(inline!, `${field}.inlineVolumeSpec`);
}

/** validateVolumeError: a message of at most 1024 bytes (upstream reports the metadata limit). */
function validateVolumeError(e: VolumeError | null | undefined, field: string): FieldError[] {
  if (!present(e)) return [];
  const errs: FieldError[] = [];
  if (Buffer.byteLength(e.message ?? '') > MAX_ERROR_MESSAGE)
    errs.push(tooLongBytes(`${field}.message`, MAX_METADATA_SIZE));
  if (typeof e.errorCode === 'number' && e.errorCode < 0)
    errs.push(invalidValue(`${field}.errorCode`, e.errorCode, 'must be between 0 and 2147483647, inclusive'));
  return errs;
}

/** ValidateVolumeAttachment (every version; the metadata rules are common). */
export function validateVolumeAttachment(obj: VolumeAttachment): FieldError[] {
  const spec = obj.spec ?? {};
  const status = obj.status ?? {};
  const errs: FieldError[] = [];
  if (!spec.attacher) errs.push(required('spec.attacher'));
  errs.push(...validateSource(spec.source ?? {}, 'spec.source'));
  errs.push(...nodeName(spec.nodeName ?? '', 'spec.nodeName'));
  if (mapBytes(status.attachmentMetadata) > MAX_METADATA_SIZE)
    errs.push(tooLongBytes('status.attachmentMetadata', MAX_METADATA_SIZE));
  errs.push(...validateVolumeError(status.attachError, 'status.attachError'));
  errs.push(...validateVolumeError(status.detachError, 'status.detachError'));
  return errs;
}

/** ValidateVolumeAttachmentV1: a storage.k8s.io/v1 create's stricter attacher and volume names. */
export function validateVolumeAttachmentV1(obj: VolumeAttachment): FieldError[] {
  const errs = validateCsiDriverName(obj.spec?.attacher ?? '', 'spec.attacher');
  const pv = obj.spec?.source?.persistentVolumeName;
  if (present(pv))
    for (const m of validateDns1123Subdomain(pv)) errs.push(invalidValue('spec.source.persistentVolumeName', pv, m));
  return errs;
}

/** ValidateVolumeAttachmentUpdate: the object rules, and spec unchanged. */
export function validateVolumeAttachmentUpdate(obj: VolumeAttachment, old: VolumeAttachment): FieldError[] {
  const errs = validateVolumeAttachment(obj);
  if (!isDeepStrictEqual(obj.spec ?? null, old.spec ?? null))
    errs.push(invalidValue('spec', obj.spec ?? null, 'field is immutable'));
  return errs;
}
