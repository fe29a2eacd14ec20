/**
 * `kubectl get csidrivers` columns (upstream printCSIDriver): NAME ATTACHREQUIRED
 * PODINFOONMOUNT STORAGECAPACITY TOKENREQUESTS REQUIRESREPUBLISH MODES AGE.
 */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { CSIDriver } from './csidrivers.schema.js';

export const csiDriverPrinter: TablePrinter<CSIDriver> = {
  columns: [
    NAME_COLUMN,
    column(
      'AttachRequired',
      'boolean',
      'attachRequired indicates this CSI volume driver requires an attach operation (because it implements the CSI ControllerPublishVolume() method), and that the Kubernetes attach detach controller should call the attach volume interface which checks the volumeattachment status and waits until the volume is attached before proceeding to mounting.',
    ),
    column(
      'PodInfoOnMount',
      'boolean',
      'podInfoOnMount indicates this CSI volume driver requires additional pod information (like podName, podUID, etc.) during mount operations, if set to true.',
    ),
    column(
      'StorageCapacity',
      'boolean',
      'storageCapacity indicates that the CSI volume driver wants pod scheduling to consider the storage capacity that the driver deployment will report by creating CSIStorageCapacity objects with capacity information, if set to true.',
    ),
    column(
      'TokenRequests',
      'string',
      "tokenRequests indicates the CSI driver needs pods' service account tokens it is mounting volume for to do necessary authentication.",
    ),
    column(
      'RequiresRepublish',
      'boolean',
      'requiresRepublish indicates the CSI driver wants `NodePublishVolume` being periodically called to reflect any possible change in the mounted volume. This field defaults to false.',
    ),
    column('Modes', 'string', 'volumeLifecycleModes defines what kind of volumes this CSI volume driver supports.'),
    AGE_COLUMN,
  ],
  cells: (d, now) => {
    const spec = d.spec ?? {};
    const audiences = (spec.tokenRequests ?? []).map((t) => t.audience ?? '');
    const modes = (spec.volumeLifecycleModes ?? []).join(',');
    return [
      d.metadata.name,
      spec.attachRequired ?? true,
      spec.podInfoOnMount ?? false,
      spec.storageCapacity ?? false,
      audiences.length ? audiences.join(',') : '<unset>',
      spec.requiresRepublish ?? false,
      modes || '<none>',
      age(d, now),
    ];
  },
};
