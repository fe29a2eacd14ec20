/** `oc get scc` columns. */
import { NAME_COLUMN, column, type TablePrinter } from '../../api/table.js';
import type { SecurityContextConstraints } from './securitycontextconstraints.schema.js';

export const securityContextConstraintsPrinter: TablePrinter<SecurityContextConstraints> = {
  columns: [
    NAME_COLUMN,
    column('Priv', 'string', 'Whether privileged containers are allowed.'),
    column('Caps', 'string', 'Capabilities that may be added.'),
    column('SELinux', 'string', 'The SELinux context strategy.'),
    column('RunAsUser', 'string', 'The user strategy.'),
    column('FSGroup', 'string', 'The fs group strategy.'),
    column('SupGroup', 'string', 'The supplemental groups strategy.'),
    column('Priority', 'string', 'Sort order of SCCs.'),
    column('ReadOnlyRootFS', 'string', 'Whether a read-only root filesystem is required.'),
    column('Volumes', 'string', 'Allowed volume types.'),
  ],
  cells: (obj) => [...sccCells(obj)],
};

function sccCells(obj: SecurityContextConstraints): unknown[] {
  const list = (v: unknown) => (Array.isArray(v) && v.length ? `[${v.join(',')}]` : '<none>');
  return [
    obj.metadata.name,
    String(Boolean(obj.allowPrivilegedContainer)),
    list(obj.allowedCapabilities),
    obj.seLinuxContext?.type ?? '',
    obj.runAsUser?.type ?? '',
    obj.fsGroup?.type ?? '',
    obj.supplementalGroups?.type ?? '',
    obj.priority === null || obj.priority === undefined ? '<none>' : String(obj.priority),
    String(Boolean(obj.readOnlyRootFilesystem)),
    list(obj.volumes),
  ];
}
