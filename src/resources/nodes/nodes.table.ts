/** `kubectl get nodes` columns (upstream printNode), with the spec's agentVersion. */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { Node } from './nodes.schema.js';

export const nodePrinter: TablePrinter<Node> = {
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'The status of the node'),
    column('Roles', 'string', 'The roles of the node'),
    AGE_COLUMN,
    column('Version', 'string', 'Agent version reported by the node.'),
    column('Internal-IP', 'string', 'List of addresses reachable to the node.', 1),
    column('External-IP', 'string', 'List of addresses reachable to the node.', 1),
    column('OS-Image', 'string', 'OS image reported by the node.', 1),
    column('Kernel-Version', 'string', 'Kernel version reported by the node.', 1),
    column('Container-Runtime', 'string', 'Container runtime reported by the node.', 1),
  ],
  cells(obj, now) {
    const status = obj.status ?? {};
    const ready = status.conditions?.find((c) => c.type === 'Ready');
    let state = ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown';
    if (obj.spec?.unschedulable) state += ',SchedulingDisabled';
    const roles = Object.keys(obj.metadata.labels ?? {})
      .filter((l) => l.startsWith('node-role.kubernetes.io/'))
      .map((l) => l.slice('node-role.kubernetes.io/'.length));
    const address = (type: string) => status.addresses?.find((a) => a.type === type)?.address ?? '<none>';
    const info = status.nodeInfo ?? {};
    return [
      obj.metadata.name,
      state,
      roles.join(',') || '<none>',
      age(obj, now),
      info.agentVersion ?? '',
      address('InternalIP'),
      address('ExternalIP'),
      info.osImage || '<unknown>',
      info.kernelVersion || '<unknown>',
      info.containerRuntimeVersion || '<unknown>',
    ];
  },
};
