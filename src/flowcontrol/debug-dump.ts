/**
 * `/debug/api_priority_and_fairness/dump_priority_levels` (upstream apf_controller_debug.go):
 * one row per priority level, sorted by name, cells joined by ",\t" and aligned as Go's
 * tabwriter (minimum width 8, padding 1) aligns them.
 */
import type { FlowControl } from './flow-control.js';

const HEADERS = [
  'PriorityLevelName',
  'ActiveQueues',
  'IsIdle',
  'IsQuiescing',
  'WaitingRequests',
  'ExecutingRequests',
  'DispatchedRequests',
  'RejectedRequests',
  'TimedoutRequests',
  'CancelledRequests',
];

/** The dump's text. */
export function dumpPriorityLevels(fc: FlowControl): string {
  const rows = [HEADERS];
  for (const name of [...fc.priorityLevels.keys()].sort()) {
    const level = fc.priorityLevels.get(name)!;
    const qs = level.queues;
    rows.push([
      name,
      String(qs.activeQueues),
      String(qs.idle),
      String(level.quiescing),
      String(qs.totRequestsWaiting),
      String(qs.totRequestsExecuting),
      String(qs.counts.dispatched),
      String(qs.counts.rejected),
      String(qs.counts.timedOut),
      String(qs.counts.cancelled),
    ]);
  }
  return tabulate(rows);
}

/** Go tabwriter.NewWriter(w, 8, 0, 1, ' ', 0) over rows whose cells end in ",\t" but the last. */
function tabulate(rows: string[][]): string {
  const cells = rows.map((r) => r.map((c, i) => (i < r.length - 1 ? `${c},` : c)));
  const widths = cells[0].map((_, i) => Math.max(8, ...cells.map((r) => (r[i]?.length ?? 0) + 1)));
  return cells.map((r) => r.map((c, i) => (i < r.length - 1 ? c.padEnd(widths[i]) : c)).join('') + '\n').join('');
}
