/**
 * The per-source rules upstream 1.10 ValidatePersistentVolume applies to the one volume source
 * of a PersistentVolume (validateHostPathVolumeSource, validateNFSVolumeSource, ...), keyed by
 * the JSON field of the source. Each gets the source block and its field path.
 */
import type { ApiObject } from '../../api/object.js';
import { validateDns1123Label } from '../../api/names.js';
import { invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import { goSlice, invalidGo } from '../../api/validation/resources.js';
import { fieldsOf, str, type Fields } from '../../api/core/validation/strings.js';

/** A source's fields, read as unknown (the schema checked their types). */
type Check = (src: Fields, path: string, obj: ApiObject) => FieldError[];

/** A number field, else `fallback` (absent or null). */
const num = (v: unknown, fallback: number): number => (typeof v === 'number' ? v : fallback);

const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** Required-value errors for each empty field named. */
function need(src: Fields, path: string, ...fields: string[]): FieldError[] {
  return fields.filter((f) => empty(src[f])).map((f) => required(`${path}.${f}`));
}

/** Upstream validatePathNoBacksteps: no `..` element. */
function noBacksteps(value: string, path: string): FieldError[] {
  return value.replace(/\\/g, '/').split('/').includes('..')
    ? [invalidValue(path, value, "must not contain '..'")]
    : [];
}

/** Upstream validation.InclusiveRangeError. */
const range = (lo: number, hi: number) => `must be between ${lo} and ${hi}, inclusive`;

const HOST_PATH_TYPES = [
  '',
  'BlockDevice',
  'CharDevice',
  'Directory',
  'DirectoryOrCreate',
  'File',
  'FileOrCreate',
  'Socket',
];

/** Upstream validateHostPathVolumeSource. */
const hostPath: Check = (src, path) => {
  if (empty(src.path)) return [required(`${path}.path`)];
  const errs = noBacksteps(str(src.path), `${path}.path`);
  if (src.type !== undefined && src.type !== null && !HOST_PATH_TYPES.includes(String(src.type)))
    errs.push(notSupported(`${path}.type`, src.type, HOST_PATH_TYPES));
  return errs;
};

/** Upstream validateGCEPersistentDiskVolumeSource / validateAWSElasticBlockStoreVolumeSource. */
const disk =
  (idField: string): Check =>
  (src, path) => {
    const errs = need(src, path, idField);
    const partition = num(src.partition, 0);
    if (partition < 0 || partition > 255) errs.push(invalidValue(`${path}.partition`, partition, range(1, 255)));
    return errs;
  };

/** Upstream validateNFSVolumeSource. */
const nfs: Check = (src, path) => {
  const errs = need(src, path, 'server', 'path');
  if (!String(src.path ?? '').startsWith('/'))
    errs.push(invalidValue(`${path}.path`, src.path ?? '', 'must be an absolute path'));
  return errs;
};

/** Upstream validateFlockerVolumeSource. */
const flocker: Check = (src, path) => {
  const errs: FieldError[] = [];
  if (empty(src.datasetName) && empty(src.datasetUUID))
    errs.push(required(path, 'one of datasetName and datasetUUID is required'));
  if (!empty(src.datasetName) && !empty(src.datasetUUID))
    errs.push(invalidValue(path, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
  if (String(src.datasetName ?? '').includes('/'))
    errs.push(invalidValue(`${path}.datasetName`, src.datasetName, "must not contain '/'"));
  return errs;
};

/** Upstream validateQuobyteVolumeSource. */
const quobyte: Check = (src, path) => {
  const errs: FieldError[] = [];
  const detail = 'must be a host:port pair or multiple pairs separated by commas';
  if (empty(src.registry)) errs.push(required(`${path}.registry`, detail));
  else
    for (const pair of String(src.registry).split(','))
      if (!/^(\[[^\]]*\]|[^:]*):[^:]*$/.test(pair)) errs.push(invalidValue(`${path}.registry`, src.registry, detail));
  return [...errs, ...need(src, path, 'volume')];
};

/** Upstream validateISCSIPersistentVolumeSource (required fields, lun range, CHAP secret). */
const iscsi: Check = (src, path) => {
  const errs = need(src, path, 'targetPortal', 'iqn');
  const iqn = String(src.iqn ?? '');
  if (iqn && !/^(iqn|eui|naa)/.test(iqn)) errs.push(invalidValue(`${path}.iqn`, iqn, 'must be valid format'));
  const lun = num(src.lun, 0);
  if (lun < 0 || lun > 255) errs.push(invalidValue(`${path}.lun`, lun, range(0, 255)));
  if ((src.chapAuthDiscovery || src.chapAuthSession) && !src.secretRef) errs.push(required(`${path}.secretRef`));
  return errs;
};

/** Upstream validateFCVolumeSource. */
const fc: Check = (src, path) => {
  const errs: FieldError[] = [];
  const wwns: string[] = Array.isArray(src.targetWWNs) ? src.targetWWNs : [];
  const wwids: string[] = Array.isArray(src.wwids) ? src.wwids : [];
  if (!wwns.length && !wwids.length)
    errs.push(required(`${path}.targetWWNs`, 'must specify either targetWWNs or wwids, but not both'));
  if (wwns.length && wwids.length)
    errs.push(
      invalidGo(
        `${path}.targetWWNs`,
        goSlice('string', wwns),
        'targetWWNs and wwids can not be specified simultaneously',
      ),
    );
  if (wwns.length) {
    if (src.lun === undefined || src.lun === null)
      errs.push(required(`${path}.lun`, 'lun is required if targetWWNs is specified'));
    else if (num(src.lun, 0) < 0 || num(src.lun, 0) > 255)
      errs.push(invalidValue(`${path}.lun`, src.lun, range(0, 255)));
  }
  return errs;
};

/** Upstream validateFlexPersistentVolumeSource: driver, and no options in Kubernetes' namespaces. */
const flexVolume: Check = (src, path) => {
  const errs = need(src, path, 'driver');
  for (const k of Object.keys(fieldsOf(src.options))) {
    const ns = k.includes('/') ? k.slice(0, k.indexOf('/')) : k;
    const normalized = `.${ns.toLowerCase()}`;
    if (normalized.endsWith('.kubernetes.io') || normalized.endsWith('.k8s.io'))
      errs.push(invalidValue(`${path}.options[${k}]`, k, 'kubernetes.io and k8s.io namespaces are reserved'));
  }
  return errs;
};

/** Upstream validateAzureFilePV. */
const azureFile: Check = (src, path) => {
  const errs = need(src, path, 'secretName', 'shareName');
  if (src.secretNamespace === '') errs.push(required(`${path}.secretNamespace`));
  return errs;
};

/** Upstream validateAzureDisk. */
const azureDisk: Check = (src, path) => {
  const errs = need(src, path, 'diskName', 'diskURI');
  const caching = ['None', 'ReadOnly', 'ReadWrite'];
  const kinds = ['Dedicated', 'Managed', 'Shared'];
  if (src.cachingMode != null && !caching.includes(String(src.cachingMode)))
    errs.push(notSupported(`${path}.cachingMode`, src.cachingMode, caching));
  if (src.kind != null && !kinds.includes(String(src.kind))) errs.push(notSupported(`${path}.kind`, src.kind, kinds));
  const uri = String(src.diskURI ?? '');
  if (src.kind === 'Managed' && !uri.startsWith('/subscriptions/')) {
    errs.push(
      notSupported(`${path}.diskURI`, uri, [
        '/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}',
      ]),
    );
  }
  if (src.kind != null && src.kind !== 'Managed' && !uri.startsWith('https://')) {
    errs.push(
      notSupported(`${path}.diskURI`, uri, [
        'https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd',
      ]),
    );
  }
  return errs;
};

/** Upstream validateLocalVolumeSource. */
const local: Check = (src, path) =>
  empty(src.path) ? [required(`${path}.path`)] : noBacksteps(str(src.path), `${path}.path`);

/** Upstream validateStorageOSPersistentVolumeSource. */
const storageos: Check = (src, path) => {
  const errs: FieldError[] = [];
  if (empty(src.volumeName)) errs.push(required(`${path}.volumeName`));
  else
    errs.push(
      ...validateDns1123Label(str(src.volumeName)).map((m) => invalidValue(`${path}.volumeName`, src.volumeName, m)),
    );
  if (!empty(src.volumeNamespace))
    errs.push(
      ...validateDns1123Label(str(src.volumeNamespace)).map((m) =>
        invalidValue(`${path}.volumeNamespace`, src.volumeNamespace, m),
      ),
    );
  if (src.secretRef) errs.push(...need(fieldsOf(src.secretRef), `${path}.secretRef`, 'name', 'namespace'));
  return errs;
};

/** Per-source checks by JSON field name. */
export const sourceChecks: Record<string, Check> = {
  hostPath,
  gcePersistentDisk: disk('pdName'),
  awsElasticBlockStore: disk('volumeID'),
  glusterfs: (src, path) => need(src, path, 'endpoints', 'path'),
  flocker,
  nfs,
  rbd: (src, path) => need(src, path, 'monitors', 'image'),
  quobyte,
  cephfs: (src, path) => need(src, path, 'monitors'),
  iscsi,
  cinder: (src, path) => need(src, path, 'volumeID'),
  fc,
  flexVolume,
  azureFile,
  vsphereVolume: (src, path) => need(src, path, 'volumePath'),
  photonPersistentDisk: (src, path) => need(src, path, 'pdID'),
  portworxVolume: (src, path) => need(src, path, 'volumeID'),
  azureDisk,
  scaleIO: (src, path) => need(src, path, 'gateway', 'system', 'volumeName'),
  local,
  storageos,
  csi: (src, path) => need(src, path, 'driver', 'volumeHandle'),
};
