/**
 * Pod volumes as upstream 1.10 validates them (pkg/apis/core/validation/validation.go
 * ValidateVolumes, validateVolumeSource and the per-source validators). Field paths are
 * upstream's, including its oddities (`persistentDisk` for gcePersistentDisk fields,
 * `downwardAPI.path` without the item index).
 */
import type { FieldError } from '../../validation/field-errors.js';
import { forbidden, invalidValue, notSupported, required, tooLong } from '../../validation/field-errors.js';
import { parseQuantity } from '../../quantity.js';
import { validateDns1123Subdomain } from '../../names.js';
import { objectFieldSelector, resourceFieldSelector, VOLUME_FIELD_PATHS } from './env.js';
import {
  fieldsOf,
  dns1123Label,
  dns1123Subdomain,
  inclusiveRange,
  invalidStrings,
  isSet,
  items,
  str,
  type Fields,
} from './strings.js';

const FILE_MODE = 'must be a number between 0 and 0777 (octal), both inclusive';
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

/** validatePathNoBacksteps. */
export function noBacksteps(path: string, field: string): FieldError[] {
  return path.replace(/\\/g, '/').split('/').includes('..') ? [invalidValue(field, path, "must not contain '..'")] : [];
}

/** validateLocalDescendingPath: relative, without `..` elements. */
export function localDescendingPath(path: string, field: string): FieldError[] {
  return [
    ...(path.startsWith('/') ? [invalidValue(field, path, 'must be a relative path')] : []),
    ...noBacksteps(path, field),
  ];
}

/** validateLocalNonReservedPath: also not starting with `..`. */
function localNonReservedPath(path: string, field: string): FieldError[] {
  const errs = localDescendingPath(path, field);
  if (path.startsWith('..') && !path.startsWith('../'))
    errs.push(invalidValue(field, path, "must not start with '..'"));
  return errs;
}

const mode = (value: unknown, field: string): FieldError[] =>
  typeof value === 'number' && (value < 0 || value > 0o777) ? [invalidValue(field, value, FILE_MODE)] : [];

/** validateKeyToPath. */
function keyToPath(kp: Fields, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(kp.key)) errs.push(required(`${field}.key`));
  if (!str(kp.path)) errs.push(required(`${field}.path`));
  errs.push(...localNonReservedPath(str(kp.path), `${field}.path`), ...mode(kp.mode, `${field}.mode`));
  return errs;
}

/** validateDownwardAPIVolumeFile: `field` is the source's own path (upstream drops the index). */
function downwardFile(file: Fields, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(file.path)) errs.push(required(`${field}.path`));
  errs.push(...localNonReservedPath(str(file.path), `${field}.path`));
  if (isSet(file.fieldRef)) {
    errs.push(...objectFieldSelector(fieldsOf(file.fieldRef), VOLUME_FIELD_PATHS, `${field}.fieldRef`));
    if (isSet(file.resourceFieldRef))
      errs.push(invalidValue(field, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (isSet(file.resourceFieldRef)) {
    errs.push(...resourceFieldSelector(fieldsOf(file.resourceFieldRef), `${field}.resourceFieldRef`, true));
  } else {
    errs.push(required(field, 'one of fieldRef and resourceFieldRef is required'));
  }
  errs.push(...mode(file.mode, `${field}.mode`));
  return errs;
}

/** validateProjectionSources. */
function projectionSources(projected: Fields, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const paths = new Set<string>();
  const seen = (p: unknown, name: unknown) => {
    if (!str(p)) return;
    if (paths.has(str(p))) errs.push(invalidValue(field, name, 'conflicting duplicate paths'));
    else paths.add(str(p));
  };
  for (const source of items(projected.sources)) {
    let n = 0;
    for (const kind of ['secret', 'configMap', 'downwardAPI'] as const) {
      if (!isSet(source[kind])) continue;
      const s = fieldsOf(source[kind]);
      if (n++ > 0) {
        errs.push(forbidden(`${field}.${kind}`, 'may not specify more than 1 volume type'));
        continue;
      }
      if (kind === 'downwardAPI') {
        for (const file of items(s!.items)) {
          errs.push(...downwardFile(file, `${field}.downwardAPI`));
          seen(file.path, file.path);
        }
        continue;
      }
      if (!str(s!.name)) errs.push(required(`${field}.name`));
      items(s!.items).forEach((kp, i) => {
        errs.push(...keyToPath(kp, `${field}.items[${i}]`));
        seen(kp.path, str(s!.name));
      });
    }
  }
  return errs;
}

const iqnFormats: [string, RegExp][] = [
  ['iqn', /iqn\.\d{4}-\d{2}\.([A-Za-z0-9\-.]+)(:[^,;*&$|\s]+)$/],
  ['eui', /^eui.[A-Za-z0-9]{16}$/],
  ['naa', /^naa.[A-Za-z0-9]{32}$/],
];

/** validateISCSIVolumeSource (without initiatorName formats). */
function iscsi(s: Fields, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(s.targetPortal)) errs.push(required(`${field}.targetPortal`));
  const iqn = str(s.iqn);
  if (!iqn) errs.push(required(`${field}.iqn`));
  else {
    const fmt = iqnFormats.find(([prefix]) => iqn.startsWith(prefix));
    if (!fmt) errs.push(invalidValue(`${field}.iqn`, iqn, 'must be valid format starting with iqn, eui, or naa'));
    else if (!fmt[1].test(iqn)) errs.push(invalidValue(`${field}.iqn`, iqn, 'must be valid format'));
  }
  const lun = typeof s.lun === 'number' ? s.lun : 0;
  if (lun < 0 || lun > 255) errs.push(invalidValue(`${field}.lun`, lun, inclusiveRange(0, 255)));
  if ((s.chapAuthDiscovery || s.chapAuthSession) && !isSet(s.secretRef)) errs.push(required(`${field}.secretRef`));
  return errs;
}

const partition = (s: Fields, field: string): FieldError[] => {
  const p = typeof s.partition === 'number' ? s.partition : 0;
  return p < 0 || p > 255 ? [invalidValue(`${field}.partition`, p, inclusiveRange(1, 255))] : [];
};

const requiredFields = (s: Fields, field: string, names: string[]): FieldError[] =>
  names.filter((n) => (Array.isArray(s[n]) ? s[n].length === 0 : !str(s[n]))).map((n) => required(`${field}.${n}`));

/** Per-source validators: (source, path of the source) -> errors; keys in upstream's check order. */
const SOURCES: Record<string, (s: Fields, field: string, volName: string) => FieldError[]> = {
  emptyDir: (s, field) => {
    if (!isSet(s.sizeLimit)) return [];
    try {
      const limit = s.sizeLimit;
      if ((typeof limit === 'string' || typeof limit === 'number') && parseQuantity(limit).coef < 0n)
        return [forbidden(`${field}.sizeLimit`, 'SizeLimit field must be a valid resource quantity')];
    } catch {
      /* the schema reports malformed quantities */
    }
    return [];
  },
  hostPath: (s, field) => {
    if (!str(s.path)) return [required(`${field}.path`)];
    const type = s.type;
    const bad = isSet(type) && !HOST_PATH_TYPES.includes(str(type));
    return [
      ...noBacksteps(str(s.path), `${field}.path`),
      ...(bad ? [notSupported(`${field}.type`, type, HOST_PATH_TYPES)] : []),
    ];
  },
  gitRepo: (s, field) => [
    ...requiredFields(s, field, ['repository']),
    ...localDescendingPath(str(s.directory), `${field}.directory`),
  ],
  gcePersistentDisk: (s, field) => {
    const path = field.replace(/gcePersistentDisk$/, 'persistentDisk');
    return [...requiredFields(s, path, ['pdName']), ...partition(s, path)];
  },
  awsElasticBlockStore: (s, field) => [...requiredFields(s, field, ['volumeID']), ...partition(s, field)],
  secret: (s, field) => [
    ...requiredFields(s, field, ['secretName']),
    ...mode(s.defaultMode, `${field}.defaultMode`),
    ...items(s.items).flatMap((kp, i) => keyToPath(kp, `${field}.items[${i}]`)),
  ],
  nfs: (s, field) => [
    ...requiredFields(s, field, ['server', 'path']),
    ...(str(s.path).startsWith('/') ? [] : [invalidValue(`${field}.path`, str(s.path), 'must be an absolute path')]),
  ],
  iscsi: (s, field, volName) => [
    ...iscsi(s, field),
    ...(isSet(s.initiatorName) && `${volName}:${str(s.targetPortal)}`.length > 64
      ? [
          invalidValue(
            field.replace(/iscsi$/, 'name'),
            volName,
            'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.',
          ),
        ]
      : []),
  ],
  glusterfs: (s, field) => requiredFields(s, field, ['endpoints', 'path']),
  flocker: (s, field) => {
    const name = str(s.datasetName);
    const uuid = str(s.datasetUUID);
    const errs: FieldError[] = [];
    if (!name && !uuid) errs.push(required(field, 'one of datasetName and datasetUUID is required'));
    if (name && uuid)
      errs.push(invalidValue(field, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
    if (name.includes('/')) errs.push(invalidValue(`${field}.datasetName`, name, "must not contain '/'"));
    return errs;
  },
  persistentVolumeClaim: (s, field) => requiredFields(s, field, ['claimName']),
  rbd: (s, field) => requiredFields(s, field, ['monitors', 'image']),
  cinder: (s, field) => requiredFields(s, field, ['volumeID']),
  cephfs: (s, field) => requiredFields(s, field, ['monitors']),
  quobyte: (s, field) => {
    const msg = 'must be a host:port pair or multiple pairs separated by commas';
    const registry = str(s.registry);
    const errs: FieldError[] = [];
    if (!registry) errs.push(required(`${field}.registry`, msg));
    else
      for (const pair of registry.split(','))
        if (!/^(\[[^\]]*\]|[^:[\]]*):[^:]*$/.test(pair)) errs.push(invalidValue(`${field}.registry`, registry, msg));
    return [...errs, ...requiredFields(s, field, ['volume'])];
  },
  downwardAPI: (s, field) => [
    ...mode(s.defaultMode, `${field}.defaultMode`),
    ...items(s.items).flatMap((f) => downwardFile(f, field)),
  ],
  fc: (s, field) => {
    const wwns = Array.isArray(s.targetWWNs) ? s.targetWWNs : [];
    const wwids = Array.isArray(s.wwids) ? s.wwids : [];
    const errs: FieldError[] = [];
    if (!wwns.length && !wwids.length)
      errs.push(required(`${field}.targetWWNs`, 'must specify either targetWWNs or wwids, but not both'));
    if (wwns.length && wwids.length)
      errs.push(
        invalidStrings(`${field}.targetWWNs`, wwns, 'targetWWNs and wwids can not be specified simultaneously'),
      );
    if (wwns.length) {
      if (!isSet(s.lun)) errs.push(required(`${field}.lun`, 'lun is required if targetWWNs is specified'));
      else if (typeof s.lun === 'number' && (s.lun < 0 || s.lun > 255))
        errs.push(invalidValue(`${field}.lun`, s.lun, inclusiveRange(0, 255)));
    }
    return errs;
  },
  flexVolume: (s, field) => {
    const errs = requiredFields(s, field, ['driver']);
    for (const k of Object.keys(s.options ?? {})) {
      const ns = `.${(k.includes('/') ? k.slice(0, k.indexOf('/')) : k).toLowerCase()}`;
      if (ns.endsWith('.kubernetes.io') || ns.endsWith('.k8s.io'))
        errs.push(invalidValue(`${field}.options[${k}]`, k, 'kubernetes.io and k8s.io namespaces are reserved'));
    }
    return errs;
  },
  configMap: (s, field) => [
    ...requiredFields(s, field, ['name']),
    ...mode(s.defaultMode, `${field}.defaultMode`),
    ...items(s.items).flatMap((kp, i) => keyToPath(kp, `${field}.items[${i}]`)),
  ],
  azureFile: (s, field) => requiredFields(s, field, ['secretName', 'shareName']),
  vsphereVolume: (s, field) => requiredFields(s, field, ['volumePath']),
  photonPersistentDisk: (s, field) => requiredFields(s, field, ['pdID']),
  portworxVolume: (s, field) => requiredFields(s, field, ['volumeID']),
  azureDisk: (s, field) => {
    const errs = requiredFields(s, field, ['diskName', 'diskURI']);
    const modes = ['None', 'ReadOnly', 'ReadWrite'];
    if (isSet(s.cachingMode) && !modes.includes(str(s.cachingMode)))
      errs.push(notSupported(`${field}.cachingMode`, s.cachingMode, modes));
    const kinds = ['Dedicated', 'Managed', 'Shared'];
    if (isSet(s.kind) && !kinds.includes(str(s.kind))) errs.push(notSupported(`${field}.kind`, s.kind, kinds));
    return errs;
  },
  storageos: (s, field) => {
    const errs = str(s.volumeName)
      ? dns1123Label(str(s.volumeName), `${field}.volumeName`)
      : [required(`${field}.volumeName`)];
    if (str(s.volumeNamespace)) errs.push(...dns1123Label(str(s.volumeNamespace), `${field}.volumeNamespace`));
    if (isSet(s.secretRef) && !str(fieldsOf(s.secretRef).name)) errs.push(required(`${field}.secretRef.name`));
    return errs;
  },
  projected: (s, field) => [...mode(s.defaultMode, `${field}.defaultMode`), ...projectionSources(s, field)],
  scaleIO: (s, field) => requiredFields(s, field, ['gateway', 'system', 'volumeName']),
  // Upstream 1.33 validateCSIVolumeSource (ValidateCSIDriverName; the secret name's errors at `name`, sic).
  csi: (s, field) => {
    const driver = str(s.driver);
    const errs: FieldError[] = [];
    if (!driver) errs.push(required(`${field}.driver`));
    if (driver.length > 63) errs.push(tooLong(`${field}.driver`, driver, 63));
    for (const m of validateDns1123Subdomain(driver.toLowerCase()))
      errs.push(invalidValue(`${field}.driver`, driver, m));
    if (isSet(s.nodePublishSecretRef)) {
      const name = str(fieldsOf(s.nodePublishSecretRef).name);
      if (!name) errs.push(required(`${field}.nodePublishSecretRef.name`));
      else errs.push(...dns1123Subdomain(name, `${field}.name`));
    }
    return errs;
  },
  // Upstream 1.33 validateEphemeralVolumeSource: a claim template is required (its spec is
  // checked by the claim's own rules when the claim is created).
  ephemeral: (s, field) => (isSet(s.volumeClaimTemplate) ? [] : [required(`${field}.volumeClaimTemplate`)]),
};

/** The path segment upstream names a second source with (it misspells downwardAPI there). */
const SECOND_SOURCE_NAME: Record<string, string> = { downwardAPI: 'downwarAPI', cephfs: 'cephFS' };

/** validateVolumeSource: exactly one source, then that source's rules. */
function volumeSource(vol: Fields, field: string): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  for (const [kind, check] of Object.entries(SOURCES)) {
    const s = vol[kind];
    if (!isSet(s)) continue;
    if (kind !== 'emptyDir' && n > 0) {
      errs.push(forbidden(`${field}.${SECOND_SOURCE_NAME[kind] ?? kind}`, 'may not specify more than 1 volume type'));
      continue;
    }
    n++;
    errs.push(...check(fieldsOf(s), `${field}.${kind}`, str(vol.name)));
  }
  if (n === 0) errs.push(required(field, 'must specify a volume type'));
  return errs;
}

/**
 * Upstream ValidateVolumes: names are unique DNS-1123 labels, each volume has one valid
 * source. Returns the errors and the valid volumes by name (what mounts may refer to).
 */
export function validateVolumes(
  volumes: unknown,
  field: string,
): { errors: FieldError[]; byName: Map<string, Fields> } {
  const errors: FieldError[] = [];
  const byName = new Map<string, Fields>();
  items(volumes).forEach((vol, i) => {
    const name = str(vol.name);
    const el = volumeSource(vol, `${field}[${i}]`);
    if (!name) el.push(required(`${field}[${i}].name`));
    else el.push(...dns1123Label(name, `${field}[${i}].name`));
    if (byName.has(name))
      el.push({
        reason: 'FieldValueDuplicate',
        field: `${field}[${i}].name`,
        message: `Duplicate value: ${JSON.stringify(name)}`,
      });
    if (el.length === 0) byName.set(name, vol);
    else errors.push(...el);
  });
  return { errors, byName };
}

/** ValidateReadOnlyPersistentDisks (replication controllers with more than one replica). */
export function readOnlyPersistentDisks(volumes: unknown, field: string): FieldError[] {
  return items(volumes).flatMap((vol, i) =>
    isSet(vol.gcePersistentDisk) && !fieldsOf(vol.gcePersistentDisk).readOnly
      ? [
          invalidValue(
            `${field}[${i}].gcePersistentDisk.readOnly`,
            false,
            'must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only',
          ),
        ]
      : [],
  );
}
