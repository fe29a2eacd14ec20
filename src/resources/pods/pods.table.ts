/** `kubectl get pods` columns (upstream printPod): NAME READY STATUS RESTARTS AGE; wide IP NODE. */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { Pod } from './pods.schema.js';

/** The STATUS cell: Terminating, Init:x/y, a container's waiting/terminated reason, or the phase. */
function podStatus(obj: Pod): string {
  const status = obj.status ?? {};
  let reason = status.reason || status.phase || 'Pending';
  const inits = status.initContainerStatuses ?? [];
  const pendingInit = inits.findIndex((c) => !(c.state?.terminated && c.state.terminated.exitCode === 0));
  if (pendingInit >= 0 && inits.length) {
    const c = inits[pendingInit];
    reason =
      c.state?.waiting?.reason && c.state.waiting.reason !== 'PodInitializing'
        ? `Init:${c.state.waiting.reason}`
        : `Init:${pendingInit}/${(obj.spec?.initContainers ?? []).length || inits.length}`;
  } else {
    for (const c of [...(status.containerStatuses ?? [])].reverse()) {
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
      else if (c.state?.terminated)
        reason =
          c.state.terminated.reason ||
          (c.state.terminated.signal
            ? `Signal:${c.state.terminated.signal}`
            : `ExitCode:${c.state.terminated.exitCode ?? 0}`);
    }
  }
  return obj.metadata.deletionTimestamp ? 'Terminating' : reason;
}

export const podPrinter: TablePrinter<Pod> = {
  columns: [
    NAME_COLUMN,
    column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    column('Status', 'string', 'The aggregate status of the containers in this pod.'),
    column('Restarts', 'integer', 'The number of times the containers in this pod have been restarted.'),
    AGE_COLUMN,
    column('IP', 'string', 'IP address allocated to the pod. Routable at least within the cluster.', 1),
    column('Node', 'string', 'Name of the node this pod is assigned to.', 1),
  ],
  cells(obj, now) {
    const status = obj.status ?? {};
    const statuses = status.containerStatuses ?? [];
    const total = (obj.spec?.containers ?? []).length;
    const ready = statuses.filter((c) => c.ready).length;
    const restarts = statuses.reduce((n, c) => n + (c.restartCount ?? 0), 0);
    return [
      obj.metadata.name,
      `${ready}/${total}`,
      podStatus(obj),
      restarts,
      age(obj, now),
      status.podIP || '<none>',
      obj.spec?.nodeName || '<none>',
    ];
  },
};
