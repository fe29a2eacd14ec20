/**
 * Audit annotations (upstream audit.AddAuditAnnotation): key/value notes that middleware and
 * handlers attach to the request's audit event, e.g. authorization's
 * `authorization.k8s.io/decision` and `authorization.k8s.io/reason`. Kept apart from the
 * audit middleware so that any layer may import it.
 */
import type { ApiContext } from '../http/context.js';

/**
 * Add an annotation to the request's audit event: it appears on the stages emitted after the
 * call. A key already set keeps its first value (upstream warns and keeps it). Does nothing
 * when the request is not audited (no policy, or level None).
 */
export function addAuditAnnotation(ctx: ApiContext, key: string, value: string): void {
  const ev = ctx.state.audit?.event;
  if (!ev) return;
  ev.annotations ??= {};
  if (!(key in ev.annotations)) ev.annotations[key] = value;
}
