/**
 * CSINode rules of upstream pkg/apis/storage/validation/validation.go (1.33: ValidateCSINode,
 * ValidateCSINodeUpdate, validateCSINodeDriver, validateCSINodeDriverNodeID with long node IDs
 * allowed as upstream's strategy does, validateCSINodeDriverAllocatable). The name is a node
 * name (a DNS subdomain: the common rule).
 */
import { duplicate, invalidValue, required, type FieldError } from '../../api/validation/field-errors.js';
import { IS_NEGATIVE } from '../../api/core/validation/strings.js';
import { qualifiedName } from '../storageclasses/storage-common.js';
import { validateCsiDriverName } from '../volumeattachments/volumeattachments.validation.js';
import type { CSINode } from './csinodes.schema.js';

const MAX_NODE_ID = 256;

type Driver = NonNullable<NonNullable<CSINode['spec']>['drivers']>[number];

/** validateCSINodeDriver; `names` holds the names of the drivers before it. */
function validateDriver(d: Driver, names: Set<string>, at: string): FieldError[] {
  const name = d.name ?? '';
  const nodeID = d.nodeID ?? '';
  const errs = validateCsiDriverName(name, `${at}.name`);
  if (!nodeID) errs.push(required(`${at}.nodeID`));
  if (Buffer.byteLength(nodeID) > MAX_NODE_ID)
    errs.push(invalidValue(`${at}.nodeID`, nodeID, `must be ${MAX_NODE_ID} characters or less`));
  const count = d.allocatable?.count;
  if (typeof count === 'number' && count < 0) errs.push(invalidValue(`${at}.allocatable.count`, count, IS_NEGATIVE));
  if (names.has(name)) errs.push(duplicate(`${at}.name`, name));
  names.add(name);
  const keys = new Set<string>();
  for (const key of d.topologyKeys ?? []) {
    if (!key) errs.push(required(at));
    if (keys.has(key)) errs.push(duplicate(at, key));
    keys.add(key);
    errs.push(...qualifiedName(key, at));
  }
  return errs;
}

/** ValidateCSINode (the metadata rules are common). */
export function validateCsiNode(obj: CSINode): FieldError[] {
  const names = new Set<string>();
  return (obj.spec?.drivers ?? []).flatMap((d, i) => validateDriver(d, names, `spec.drivers[${i}]`));
}

/** Go's %#v of a CSINodeDriver (a set allocatable pointer is printed without its address). */
function goDriver(d: Driver): string {
  const keys = d.topologyKeys
    ? `[]string{${d.topologyKeys.map((k) => JSON.stringify(k)).join(', ')}}`
    : '[]string(nil)';
  const alloc = d.allocatable ? '(*storage.VolumeNodeResources)(…)' : '(*storage.VolumeNodeResources)(nil)';
  return `storage.CSINodeDriver{Name:${JSON.stringify(d.name ?? '')}, NodeID:${JSON.stringify(d.nodeID ?? '')}, TopologyKeys:${keys}, Allocatable:${alloc}}`;
}

/** The fields of a driver upstream compares (Go: nil and empty lists alike, an unset count). */
const comparable = (d: Driver) =>
  JSON.stringify([d.name ?? '', d.nodeID ?? '', d.topologyKeys ?? [], d.allocatable?.count ?? null]);

/** ValidateCSINodeUpdate: the object rules, and a driver already listed unchanged (MutableCSINodeAllocatableCount off). */
export function validateCsiNodeUpdate(obj: CSINode, old: CSINode): FieldError[] {
  const errs = validateCsiNode(obj);
  for (const o of old.spec?.drivers ?? [])
    for (const n of obj.spec?.drivers ?? [])
      if ((o.name ?? '') === (n.name ?? '') && comparable(o) !== comparable(n))
        errs.push({
          reason: 'FieldValueInvalid',
          field: 'spec.drivers',
          message: `Invalid value: ${goDriver(n)}: field is immutable`,
        });
  return errs;
}
