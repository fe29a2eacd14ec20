/**
 * VolumeAttachment (upstream pkg/registry/storage/volumeattachment): cluster-scoped, with a
 * `status` subresource; stored as storage.k8s.io/v1 under upstream's prefix
 * `volumeattachments` and served also at storage.k8s.io/v1beta1 and the spec's
 * storage.ck.io/v1beta1 (the same fields, no defaults). A create starts with an empty status
 * (`attached: false`); spec is immutable; the main resource keeps status, `/status` keeps
 * spec. storage.k8s.io/v1 creates also get ValidateVolumeAttachmentV1's rules, as upstream's
 * strategy applies them only to that version. status errors' `errorCode` is dropped
 * (MutableCSINodeAllocatableCount, alpha and off in 1.33) unless the stored object has one.
 */
import type { ApiObject } from '../../api/object.js';
import type { ResourceDefinition, Strategy, SubresourceDefinition } from '../../registry/types.js';
import { defineResource, keepStatusOnUpdate, statusSubresource } from '../define.js';
import { sameFields } from '../storageclasses/storage-common.js';
import { volumeAttachmentMessages } from './volumeattachments.protobuf.js';
import { volumeAttachmentSchema, type VolumeAttachment } from './volumeattachments.schema.js';
import { volumeAttachmentPrinter } from './volumeattachments.table.js';
import {
  validateVolumeAttachment,
  validateVolumeAttachmentUpdate,
  validateVolumeAttachmentV1,
} from './volumeattachments.validation.js';

type Status = NonNullable<VolumeAttachment['status']>;

/** Whether a status carries an errorCode. */
const hasErrorCode = (s: Status | null | undefined) =>
  [s?.attachError, s?.detachError].some((e) => e?.errorCode !== undefined && e?.errorCode !== null);

/** The status without errorCodes, unless the old one had some (upstream dropDisabledFields). */
function dropErrorCodes(status: Status | null | undefined, old: Status | null | undefined): Status | null | undefined {
  if (!status || hasErrorCode(old)) return status;
  const strip = (e: Status['attachError']) => {
    if (!e) return e;
    const { errorCode: _c, ...rest } = e;
    return rest;
  };
  const out: Status = { ...status };
  if (status.attachError) out.attachError = strip(status.attachError);
  if (status.detachError) out.detachError = strip(status.detachError);
  return out;
}

/** The rules of a write at a beta version (upstream: every version but v1). */
const betaStrategy: Strategy<VolumeAttachment> = {
  prepareForCreate(obj) {
    obj.status = { attached: false };
  },
  ...keepStatusOnUpdate,
  validate: validateVolumeAttachment,
  validateUpdate: validateVolumeAttachmentUpdate,
};

const status: SubresourceDefinition<VolumeAttachment> = (() => {
  const base = statusSubresource<VolumeAttachment>('VolumeAttachment');
  return {
    ...base,
    merge: (requested: ApiObject, old: VolumeAttachment) => {
      const merged = base.merge!(requested, old);
      return { ...merged, status: dropErrorCodes(merged.status, old.status) };
    },
  };
})();

export const volumeAttachments = defineResource({
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'VolumeAttachment',
  description:
    'VolumeAttachment captures the intent to attach or detach the specified volume to or from the specified node. VolumeAttachment objects are non-namespaced.',
  plural: 'volumeattachments',
  namespaced: false,
  schema: volumeAttachmentSchema,
  printer: volumeAttachmentPrinter,
  protobuf: volumeAttachmentMessages,
  subresources: [status],
  strategy: {
    ...betaStrategy,
    validate: (obj) => [...validateVolumeAttachment(obj), ...validateVolumeAttachmentV1(obj)],
  },
});

/** VolumeAttachment at a beta group version, over the storage.k8s.io/v1 storage. */
function beta(group: string): ResourceDefinition<VolumeAttachment> {
  return {
    ...volumeAttachments,
    group,
    version: 'v1beta1',
    strategy: betaStrategy,
    conversion: sameFields(`${group}/v1beta1`, 'storage.k8s.io/v1'),
  };
}

export const volumeAttachmentsV1beta1 = beta('storage.k8s.io');
export const volumeAttachmentsCkV1beta1 = beta('storage.ck.io');
