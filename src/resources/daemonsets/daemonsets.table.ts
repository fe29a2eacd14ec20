/** `kubectl get daemonsets` columns (upstream pkg/printers/internalversion printDaemonSet). */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import { CONTAINERS_COLUMN, IMAGES_COLUMN, containerCells } from '../statefulsets/statefulsets.table.js';
import { asSelector, selectorString } from '../apps-common/label-selector.js';
import { selectorOrFailure } from '../statefulsets/workload-rules.js';
import type { DaemonSet } from './daemonsets.schema.js';

/** upstream labels.FormatLabels: `k=v` sorted by key, `<none>` when empty. */
function formatLabels(map: Readonly<Record<string, string>> | null | undefined): string {
  const text = Object.keys(map ?? {})
    .sort()
    .map((k) => `${k}=${map![k]}`)
    .join(',');
  return text || '<none>';
}

/** The Selector cell: the selector's string form (`<invalid>` for one upstream cannot build, where it errors). */
function wideSelector(selector: Parameters<typeof asSelector>[0]): string {
  const built = selectorOrFailure(selector);
  return built === null ? '<invalid>' : selectorString(built);
}

export const daemonSetPrinter: TablePrinter<DaemonSet> = {
  columns: [
    NAME_COLUMN,
    column(
      'Desired',
      'integer',
      'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
    ),
    column(
      'Current',
      'integer',
      'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
    ),
    column(
      'Ready',
      'integer',
      'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.',
    ),
    column('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod'),
    column(
      'Available',
      'integer',
      'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)',
    ),
    column(
      'Node Selector',
      'string',
      "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
    ),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    column(
      'Selector',
      'string',
      'A label query over pods that are managed by the daemon set. Must match in order to be controlled. If empty, defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
      1,
    ),
  ],
  cells(obj, now) {
    const status = obj.status ?? {};
    const podSpec = obj.spec?.template?.spec;
    const [names, images] = containerCells(podSpec?.containers);
    return [
      obj.metadata.name,
      status.desiredNumberScheduled ?? 0,
      status.currentNumberScheduled ?? 0,
      status.numberReady ?? 0,
      status.updatedNumberScheduled ?? 0,
      status.numberAvailable ?? 0,
      formatLabels(podSpec?.nodeSelector),
      age(obj, now),
      names,
      images,
      wideSelector(obj.spec?.selector),
    ];
  },
};
