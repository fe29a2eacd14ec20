/** `kubectl get volumeattachments` columns (upstream printVolumeAttachment): NAME ATTACHER PV NODE ATTACHED AGE. */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { VolumeAttachment } from './volumeattachments.schema.js';

export const volumeAttachmentPrinter: TablePrinter<VolumeAttachment> = {
  columns: [
    NAME_COLUMN,
    column(
      'Attacher',
      'string',
      'attacher indicates the name of the volume driver that MUST handle this request. This is the name returned by GetPluginName().',
      0,
      'name',
    ),
    column('PV', 'string', 'persistentVolumeName represents the name of the persistent volume to attach.'),
    column('Node', 'string', 'nodeName represents the node that the volume should be attached to.'),
    column(
      'Attached',
      'boolean',
      'attached indicates the volume is successfully attached. This field must only be set by the entity completing the attach operation, i.e. the external-attacher.',
    ),
    AGE_COLUMN,
  ],
  cells: (va, now) => [
    va.metadata.name,
    va.spec?.attacher ?? '',
    va.spec?.source?.persistentVolumeName ?? '',
    va.spec?.nodeName ?? '',
    va.status?.attached ?? false,
    age(va, now),
  ],
};
