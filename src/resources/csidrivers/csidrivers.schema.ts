/** CSIDriver fields (k8s.io/api storage/v1 types.go, 1.33). */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { bool, int, list, obj, reqObj, replacedSetList, str } from '../../api/core/schema-kit.js';
import { z } from 'zod';

export const csiDriverSchema = kindSchema({
  spec: obj({
    attachRequired: bool.describe(
      'Whether the driver needs an attach operation (it implements ControllerPublishVolume), so the attach/detach controller waits for its VolumeAttachment. Defaults to true. Immutable.',
    ),
    fsGroupPolicy: str.describe(
      'Whether the volume supports changing ownership and permissions before being mounted: ReadWriteOnceWithFSType (the default), File or None.',
    ),
    nodeAllocatableUpdatePeriodSeconds: int.describe(
      'Interval of periodic updates of the CSINode allocatable capacity for this driver, at least 10 (alpha: MutableCSINodeAllocatableCount, off in 1.33, so dropped).',
    ),
    podInfoOnMount: bool.describe(
      'Whether the driver needs pod information (name, namespace, uid, ephemeral) in NodePublishVolume calls. Defaults to false.',
    ),
    requiresRepublish: bool.describe(
      'Whether NodePublishVolume should be called periodically to reflect changes in the mounted volume. Defaults to false.',
    ),
    seLinuxMount: bool.describe(
      'Whether the driver supports the "-o context" mount option, so volumes of a ReadWriteOncePod claim are mounted with the SELinux context of their pod. Defaults to false.',
    ),
    storageCapacity: bool.describe(
      'Whether pod scheduling should consider the storage capacity the driver reports in CSIStorageCapacity objects. Defaults to false.',
    ),
    tokenRequests: list(
      reqObj({
        audience: str.describe('The intended audience of the token; defaults to the audiences of the API server.'),
        expirationSeconds: int.describe('The validity of the token, from 10 minutes to 2^32 seconds.'),
      }),
    ).describe(
      "Service account tokens of the pods the driver mounts volumes for, passed in NodePublishVolume's volume context; each audience once.",
    ),
    volumeLifecycleModes: replacedSetList(z.string()).describe(
      'The kinds of volumes the driver supports: Persistent (the default) and Ephemeral (inline in a pod spec). Immutable.',
    ),
  }).describe('The specification of the CSI driver.'),
});

/** A CSIDriver as its schema describes it. */
export type CSIDriver = KindObject<typeof csiDriverSchema>;

/** SetDefaults_CSIDriver (v1, with SELinuxMountReadWriteOncePod on as in 1.33). */
export function defaultCsiDriver(obj: CSIDriver): void {
  const spec = (obj.spec ??= {});
  spec.attachRequired ??= true;
  spec.podInfoOnMount ??= false;
  spec.storageCapacity ??= false;
  spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
  if (!spec.volumeLifecycleModes?.length) spec.volumeLifecycleModes = ['Persistent'];
  spec.requiresRepublish ??= false;
  spec.seLinuxMount ??= false;
}
