/**
 * Short names advertised once: a short name (`deploy`, `ing`, `ev`) is kept by the first group
 * that serves it, in discovery's priority (core first, then API_GROUPS' order), and dropped from
 * the same resource served under other groups (extensions/v1beta1, the spec's `*.ck.io` names,
 * events.k8s.io). kubectl's shortcut expander warns `short name "deploy" could also match lower
 * priority resource deployments.extensions` on every use of a short name two groups advertise;
 * upstream's servers of today advertise each once (events.k8s.io Events have none).
 */
import { API_GROUPS } from '../api/groups.js';
import type { ResourceDefinition } from '../registry/types.js';

/** Rank of a group in discovery: core 0, then API_GROUPS' order; a group not listed last. */
function rank(group: string): number {
  if (group === '') return 0;
  const i = API_GROUPS.findIndex((g) => g.name === group);
  return i < 0 ? API_GROUPS.length + 1 : i + 1;
}

/**
 * `rows` with each short name kept only on the rows of the highest-priority group advertising
 * it (every version of that group keeps it). Rows keep their order; a row that loses short
 * names is a shallow copy, others are returned as they are.
 */
export function advertiseShortNamesOnce(rows: readonly ResourceDefinition[]): ResourceDefinition[] {
  const owner = new Map<string, string>();
  for (const row of [...rows].sort((a, b) => rank(a.group) - rank(b.group))) {
    for (const name of row.shortNames) if (!owner.has(name)) owner.set(name, row.group);
  }
  return rows.map((row) => {
    const kept = row.shortNames.filter((name) => owner.get(name) === row.group);
    return kept.length === row.shortNames.length ? row : { ...row, shortNames: kept };
  });
}
