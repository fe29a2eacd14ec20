/**
 * Apply conflicts as the API reports them (k8s.io/apimachinery `pkg/util/managedfields/
 * internal/conflict.go` NewConflictError, `pkg/api/errors` NewApplyConflict): HTTP 409,
 * reason `Conflict`, `details.causes` one per conflicting field, and a message that names each
 * owner once:
 *
 *   Apply failed with 1 conflict: conflict with "helm" using v1: .data.k
 *   Apply failed with 2 conflicts: conflicts with "x" using v1:\n- .a\n- .b
 *
 * An applier is printed as its quoted name, an updater with ` using <apiVersion>`, a
 * subresource with ` with subresource "<name>"`. Managers are listed in the order of their
 * identifiers, as upstream sorts them. The caller builds the ApiError from this plain data.
 */
import { compareStrings, goQuote } from './go-format.js';
import { parseManagerIdentifier } from './managed-fields.js';
import { pathToString, type Path } from './path.js';

/** One conflicting field. */
export interface Conflict {
  /** The owner's manager name. */
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  /** The owner's apiVersion (updaters only). */
  readonly apiVersion?: string;
  readonly subresource?: string;
  /** The owner's time, when its identifier carries one. */
  readonly time?: string;
  /** The owner's identifier as upstream keys managers (ManagedFieldsEntry JSON without fields and time). */
  readonly identifier: string;
  readonly path: Path;
  /** The path as upstream prints it, e.g. `.spec.replicas`. */
  readonly field: string;
}

/** One cause of the 409 Status. */
export interface ConflictCause {
  readonly reason: 'FieldManagerConflict';
  readonly message: string;
  readonly field: string;
}

/** The Status parts of an apply conflict: `{code: 409, reason: 'Conflict', message, details: {causes}}`. */
export interface ConflictStatus {
  readonly code: 409;
  readonly reason: 'Conflict';
  readonly message: string;
  readonly causes: readonly ConflictCause[];
}

/** A Conflict from a manager identifier and a path. */
export function conflictOf(identifier: string, path: Path): Conflict {
  const info = parseManagerIdentifier(identifier);
  return {
    manager: info.manager,
    operation: info.operation,
    ...(info.operation === 'Update' && info.apiVersion ? { apiVersion: info.apiVersion } : {}),
    ...(info.subresource ? { subresource: info.subresource } : {}),
    ...(info.time ? { time: info.time } : {}),
    identifier,
    path,
    field: pathToString(path),
  };
}

/** upstream printManager: `"helm"`, `"kube-controller-manager" using v1`, `"kubelet" with subresource "status" using v1`. */
export function printManager(
  c: Pick<Conflict, 'manager' | 'operation' | 'apiVersion' | 'subresource' | 'time'>,
): string {
  let s = goQuote(c.manager);
  if (c.subresource) s += ` with subresource ${goQuote(c.subresource)}`;
  if (c.operation !== 'Update') return s;
  s += ` using ${c.apiVersion ?? ''}`;
  const t = c.time ? Date.parse(c.time) : NaN;
  return Number.isNaN(t) ? s : `${s} at ${new Date(t).toISOString().replace(/\.\d+Z$/, 'Z')}`;
}

/** The message and causes upstream answers for these conflicts (at least one). */
export function conflictStatus(conflicts: readonly Conflict[]): ConflictStatus {
  const causes = conflicts.map((c) => ({
    reason: 'FieldManagerConflict' as const,
    message: `conflict with ${printManager(c)}`,
    field: c.field,
  }));
  return { code: 409, reason: 'Conflict', message: conflictMessage(conflicts), causes };
}

/** upstream getConflictMessage. */
export function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1)
    return `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0])}: ${conflicts[0].field}`;
  const byManager = new Map<string, Conflict[]>();
  for (const c of conflicts) {
    const held = byManager.get(c.identifier);
    if (held) held.push(c);
    else byManager.set(c.identifier, [c]);
  }
  const lines: string[] = [];
  for (const id of [...byManager.keys()].sort(compareStrings)) {
    const group = byManager.get(id)!;
    lines.push(`conflicts with ${printManager(group[0])}:`);
    for (const c of group) lines.push(`- ${c.field}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}
