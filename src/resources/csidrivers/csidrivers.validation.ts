/**
 * CSIDriver rules of upstream pkg/apis/storage/validation/validation.go (1.33: ValidateCSIDriver,
 * ValidateCSIDriverUpdate, validateCSIDriverSpec and its parts). The "required" rules of
 * attachRequired, podInfoOnMount, storageCapacity and seLinuxMount cannot fail through the API
 * (the defaults fill them), and nodeAllocatableUpdatePeriodSeconds is dropped before (its gate
 * is off), so their checks are not repeated here.
 */
import { isDeepStrictEqual } from 'node:util';
import { duplicate, invalidValue, notSupported, type FieldError } from '../../api/validation/field-errors.js';
import type { CSIDriver } from './csidrivers.schema.js';

const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES = ['Persistent', 'Ephemeral'];
const MIN_EXPIRATION = 10 * 60;
const MAX_EXPIRATION = 2 ** 32;

type Spec = NonNullable<CSIDriver['spec']>;

/** validateTokenRequests: each audience once, expirations between 10 minutes and 2^32 seconds. */
function validateTokenRequests(requests: NonNullable<Spec['tokenRequests']>, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const audiences = new Set<string>();
  for (const [i, r] of requests.entries()) {
    const at = `${field}[${i}]`;
    const audience = r.audience ?? '';
    if (audiences.has(audience)) {
      errs.push(duplicate(`${at}.audience`, audience));
      continue;
    }
    audiences.add(audience);
    const exp = r.expirationSeconds;
    if (exp === undefined || exp === null) continue;
    if (exp < MIN_EXPIRATION)
      errs.push(invalidValue(`${at}.expirationSeconds`, exp, 'may not specify a duration less than 10 minutes'));
    if (exp > MAX_EXPIRATION)
      errs.push(invalidValue(`${at}.expirationSeconds`, exp, 'may not specify a duration larger than 2^32 seconds'));
  }
  return errs;
}

/** validateCSIDriverSpec. */
export function validateCsiDriver(obj: CSIDriver): FieldError[] {
  const spec: Spec = obj.spec ?? {};
  const errs: FieldError[] = [];
  const policy = spec.fsGroupPolicy;
  if (typeof policy === 'string' && !FS_GROUP_POLICIES.includes(policy))
    errs.push(notSupported('spec.fsGroupPolicy', policy, FS_GROUP_POLICIES));
  errs.push(...validateTokenRequests(spec.tokenRequests ?? [], 'spec.tokenRequests'));
  for (const mode of spec.volumeLifecycleModes ?? [])
    if (!LIFECYCLE_MODES.includes(mode)) errs.push(notSupported('spec.volumeLifecycleModes', mode, LIFECYCLE_MODES));
  return errs;
}

/** Go's %#v of a []VolumeLifecycleMode. */
function goModes(modes: readonly string[] | null | undefined): string {
  if (!modes) return '[]storage.VolumeLifecycleMode(nil)';
  return `[]storage.VolumeLifecycleMode{${modes.map((m) => JSON.stringify(m)).join(', ')}}`;
}

/**
 * ValidateCSIDriverUpdate: the spec rules, attachRequired (reported at upstream's path
 * `spec.attachedRequired`) and volumeLifecycleModes immutable.
 */
export function validateCsiDriverUpdate(obj: CSIDriver, old: CSIDriver): FieldError[] {
  const errs = validateCsiDriver(obj);
  const attach = obj.spec?.attachRequired ?? null;
  if (attach !== (old.spec?.attachRequired ?? null))
    errs.push(invalidValue('spec.attachedRequired', attach, 'field is immutable'));
  const modes = obj.spec?.volumeLifecycleModes;
  if (!isDeepStrictEqual(modes ?? [], old.spec?.volumeLifecycleModes ?? []))
    errs.push({
      reason: 'FieldValueInvalid',
      field: 'spec.volumeLifecycleModes',
      message: `Invalid value: ${goModes(modes)}: field is immutable`,
    });
  return errs;
}
