/**
 * PersistentVolume rules of upstream 1.33 pkg/apis/core/validation (ValidatePersistentVolume,
 * ValidatePersistentVolumeSpec, ValidatePersistentVolumeUpdate, ValidatePersistentVolumeStatusUpdate
 * and the per-source checks) and pkg/volume/validation (mount options), with 1.33's default
 * feature gates (VolumeAttributesClass off: the field is dropped on create, see the strategy).
 * What changed since 1.10 is in persistentvolume-today.ts (rows PV33-* of core-today.md).
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
import {
  ACCESS_MODES_TODAY,
  diffOf,
  immutable,
  validateAccessModes,
  validatePositiveQuantity,
  validateVolumeNodeAffinity,
} from './persistentvolume-today.js';

type Spec = NonNullable<PersistentVolume['spec']>;

export const ACCESS_MODES = ACCESS_MODES_TODAY;
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
  errs.push(...validateAccessModes(modes, 'spec.accessModes'));

  const capacity = spec.capacity;
  const capKeys = Object.keys(capacity ?? {});
  if (!capKeys.length) errs.push(required('spec.capacity'));
  if (!capKeys.includes('storage') || capKeys.length > 1)
    errs.push(notSupportedGo('spec.capacity', goResourceList(capacity), ['storage']));
  for (const [r, raw] of Object.entries(capacity ?? {})) {
    const q = quantityOfJson(raw);
    if (!q) continue;
    // validateBasicResource refuses Quantity.Value() < 0 (printed as that int64).
    const whole = wholeValue(q);
    if (whole < 0n) errs.push(invalidValue(`spec.capacity[${r}]`, whole, 'must be a valid resource quantity'));
    errs.push(...validatePositiveQuantity(q, `spec.capacity[${r}]`));
  }
  const policy = spec.persistentVolumeReclaimPolicy;
  if (policy && !RECLAIM_POLICIES.includes(policy))
    errs.push(notSupported('spec.persistentVolumeReclaimPolicy', policy, RECLAIM_POLICIES));

  if (present(spec.nodeAffinity)) errs.push(...validateVolumeNodeAffinity(spec.nodeAffinity, 'spec.nodeAffinity'));
  let count = 0;
  for (const [key, pathName] of SOURCE_ORDER) {
    if (!present(fields[key])) continue;
    if (count > 0 && key !== 'flexVolume') {
      errs.push(forbidden(`spec.${FORBIDDEN_NAME[key] ?? key}`, 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    errs.push(...(sourceChecks[key]?.(fieldsOf(fields[key]), `spec.${pathName}`, obj) ?? []));
    if (key === 'local' && !present(spec.nodeAffinity))
      errs.push(required('spec.nodeAffinity', 'Local volume requires node affinity'));
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

/**
 * Upstream ValidatePersistentVolumeUpdate: the object rules, the volume source unchanged (a CSI
 * source may gain a controllerExpandSecretRef), volumeMode unchanged, nodeAffinity unchanged
 * once set. A /status write (the status differs; the main resource keeps the stored one) is
 * ValidatePersistentVolumeStatusUpdate, which checks metadata only.
 */
export function validatePersistentVolumeUpdate(obj: PersistentVolume, old: PersistentVolume): FieldError[] {
  if (!isDeepStrictEqual(obj.status, old.status)) return [];
  const errs = validatePersistentVolume(obj);
  const source = (o: PersistentVolume, expandRef: boolean) => {
    const out: Record<string, unknown> = Object.fromEntries(
      Object.entries(o.spec ?? {}).filter(([k, v]) => k in persistentVolumeSources && v !== null && v !== undefined),
    );
    if (!expandRef && out.csi) {
      const { controllerExpandSecretRef: _r, ...csi } = fieldsOf(out.csi);
      out.csi = csi;
    }
    return out;
  };
  const oldHasRef = present(fieldsOf(old.spec?.csi).controllerExpandSecretRef);
  const before = source(old, true);
  const after = source(obj, !(present(old.spec?.csi) && !oldHasRef));
  if (!isDeepStrictEqual(after, before)) {
    errs.push(
      forbidden(
        'spec.persistentvolumesource',
        `spec.persistentvolumesource is immutable after creation\n${diffOf(before, after)}`,
      ),
    );
  }
  errs.push(...immutable('volumeMode', obj.spec?.volumeMode, old.spec?.volumeMode));
  if (present(old.spec?.nodeAffinity) && !isDeepStrictEqual(obj.spec?.nodeAffinity, old.spec?.nodeAffinity)) {
    const shown = present(obj.spec?.nodeAffinity)
      ? '&core.VolumeNodeAffinity{Required:(*core.NodeSelector)(0xc000000000)}'
      : 'null';
    errs.push({
      reason: 'FieldValueInvalid',
      field: 'nodeAffinity',
      message: `Invalid value: ${shown}: field is immutable`,
    });
  }
  return errs;
}
