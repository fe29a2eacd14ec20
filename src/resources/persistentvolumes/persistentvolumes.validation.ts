/**
 * PersistentVolume rules of upstream 1.10 pkg/apis/core/validation (ValidatePersistentVolume,
 * ValidatePersistentVolumeUpdate and the per-source checks) and pkg/volume/validation
 * (mount options), with the feature gates at their 1.10 defaults (BlockVolume off).
 */
import { isDeepStrictEqual } from 'node:util';
import { posix } from 'node:path';
import { persistentVolumeSources } from '../../api/core/volumes.js';
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import { goQuantity, notSupportedGo, quantityOfJson, subdomainErrors } from '../../api/validation/resources.js';
import { wholeValue } from '../../api/quantity.js';
import { fieldsOf, type Fields } from '../../api/core/validation/strings.js';
import { sourceChecks } from './persistentvolume-sources.js';
import type { PersistentVolume } from './persistentvolumes.schema.js';

type Spec = NonNullable<PersistentVolume['spec']>;

export const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce'];
const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];
const MOUNT_OPTIONS_ANNOTATION = 'volume.beta.kubernetes.io/mount-options';

/** The sources in the order upstream ValidatePersistentVolume visits them, with the path it uses. */
const SOURCE_ORDER: [string, string][] = [
  ['hostPath', 'hostPath'],
  ['gcePersistentDisk', 'persistentDisk'],
  ['awsElasticBlockStore', 'awsElasticBlockStore'],
  ['glusterfs', 'glusterfs'],
  ['flocker', 'flocker'],
  ['nfs', 'nfs'],
  ['rbd', 'rbd'],
  ['quobyte', 'quobyte'],
  ['cephfs', 'cephfs'],
  ['iscsi', 'iscsi'],
  ['cinder', 'cinder'],
  ['fc', 'fc'],
  ['flexVolume', 'flexVolume'],
  ['azureFile', 'azureFile'],
  ['vsphereVolume', 'vsphereVolume'],
  ['photonPersistentDisk', 'photonPersistentDisk'],
  ['portworxVolume', 'portworxVolume'],
  ['azureDisk', 'azureDisk'],
  ['scaleIO', 'scaleIO'],
  ['local', 'local'],
  ['storageos', 'storageos'],
  ['csi', 'csi'],
];
/** Sources whose "more than 1" error upstream names differently from the JSON field. */
const FORBIDDEN_NAME: Record<string, string> = { cephfs: 'cephFS' };
/** Sources that support mount options (pkg/volume/validation checkMountOption). */
const MOUNTABLE = new Set([
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'glusterfs',
  'nfs',
  'rbd',
  'quobyte',
  'iscsi',
  'cinder',
  'cephfs',
  'azureFile',
  'vsphereVolume',
  'azureDisk',
  'photonPersistentDisk',
]);

const present = <T>(v: T): v is NonNullable<T> => v !== undefined && v !== null;

/** Go's `%#v` of a capacity ResourceList. */
function goResourceList(capacity: Record<string, unknown> | null | undefined): string {
  if (capacity === undefined || capacity === null) return 'core.ResourceList(nil)';
  return `core.ResourceList{${Object.entries(capacity)
    .map(([k, v]) => `${JSON.stringify(k)}:${goQuantity(v, false)}`)
    .join(', ')}}`;
}

/**
 * Upstream ValidatePersistentVolume: accessModes required and supported; capacity required
 * with storage only, quantities valid; reclaim policy supported; exactly one volume source,
 * each with its required fields; no Recycle of hostPath `/`; storageClassName a DNS
 * subdomain; volumeMode forbidden (BlockVolume gate off); mount options only where supported.
 */
export function validatePersistentVolume(obj: PersistentVolume): FieldError[] {
  const spec: Spec = obj.spec ?? {};
  /** The spec's fields by name, for the volume sources looked up by their JSON field. */
  const fields: Fields = spec;
  const errs: FieldError[] = [];
  const modes: string[] = spec.accessModes ?? [];
  if (!modes.length) errs.push(required('spec.accessModes'));
  for (const mode of modes)
    if (!ACCESS_MODES.includes(mode)) errs.push(notSupported('spec.accessModes', mode, ACCESS_MODES));

  const capacity = spec.capacity;
  const capKeys = Object.keys(capacity ?? {});
  if (!capKeys.length) errs.push(required('spec.capacity'));
  if (!capKeys.includes('storage') || capKeys.length > 1)
    errs.push(notSupportedGo('spec.capacity', goResourceList(capacity), ['storage']));
  for (const [r, raw] of Object.entries(capacity ?? {})) {
    const q = quantityOfJson(raw);
    // Upstream 1.10 validateBasicResource refuses Quantity.Value() < 0, an int64 that overflows
    // to 0 for huge negatives; today's upstream compares the quantity itself (Cmp), as here.
    if (q && q.coef < 0n) {
      const whole = wholeValue(q);
      errs.push(
        invalidValue(`spec.capacity[${r}]`, whole < 0n ? whole : q.toString(), 'must be a valid resource quantity'),
      );
    }
  }
  const policy = spec.persistentVolumeReclaimPolicy;
  if (policy && !RECLAIM_POLICIES.includes(policy))
    errs.push(notSupported('spec.persistentVolumeReclaimPolicy', policy, RECLAIM_POLICIES));

  let count = 0;
  for (const [key, pathName] of SOURCE_ORDER) {
    if (!present(fields[key])) continue;
    if (count > 0 && key !== 'flexVolume') {
      errs.push(forbidden(`spec.${FORBIDDEN_NAME[key] ?? key}`, 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    errs.push(...(sourceChecks[key]?.(fieldsOf(fields[key]), `spec.${pathName}`, obj) ?? []));
  }
  if (count === 0) errs.push(required('spec', 'must specify a volume type'));

  if (
    present(spec.hostPath) &&
    posix.normalize(String(spec.hostPath.path ?? '')).replace(/(.)\/$/, '$1') === '/' &&
    policy === 'Recycle'
  ) {
    errs.push(forbidden('spec.persistentVolumeReclaimPolicy', "may not be 'recycle' for a hostPath mount of '/'"));
  }
  if (spec.storageClassName) errs.push(...subdomainErrors(spec.storageClassName, 'spec.storageClassName'));
  if (present(spec.volumeMode))
    errs.push(forbidden('spec.volumeMode', 'PersistentVolume volumeMode is disabled by feature-gate'));

  const annotations = obj.metadata.annotations ?? {};
  const mountable = Object.keys(persistentVolumeSources).some((k) => MOUNTABLE.has(k) && present(fields[k]));
  if (!mountable && MOUNT_OPTIONS_ANNOTATION in annotations) {
    errs.push(
      forbidden(
        `metadata.annotations.${MOUNT_OPTIONS_ANNOTATION}`,
        'may not specify mount options for this volume type',
      ),
    );
  }
  return errs;
}

/** Upstream ValidatePersistentVolumeUpdate: the object rules, and the volume source unchanged. */
export function validatePersistentVolumeUpdate(obj: PersistentVolume, old: PersistentVolume): FieldError[] {
  const errs = validatePersistentVolume(obj);
  const source = (o: PersistentVolume) =>
    Object.fromEntries(Object.entries(o.spec ?? {}).filter(([k]) => k in persistentVolumeSources));
  if (!isDeepStrictEqual(source(obj), source(old)))
    errs.push(forbidden('spec.persistentvolumesource', 'is immutable after creation'));
  return errs;
}
