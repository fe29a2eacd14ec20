/**
 * Audit annotations (upstream audit.AddAuditAnnotation): key/value notes that middleware and
 * handlers attach to the request's audit event, e.g. authorization's
 * `authorization.k8s.io/decision` and `authorization.k8s.io/reason`. Kept apart from the
 * audit middleware (http/middleware/audit.ts); it takes any context whose state may carry the
 * request's audit state, so it needs nothing of http.
 */
import type { AuditState } from './auditor.js';

/** What an annotation is added to: a request context (http's ApiContext is one). */
export interface AuditedContext {
  readonly state: { readonly audit?: AuditState };
}

/**
 * Add an annotation to the request's audit event: it appears on the stages emitted after the
 * call. A key already set keeps its first value (upstream warns and keeps it). Does nothing
 * when the request is not audited (no policy, or level None).
 */
export function addAuditAnnotation(ctx: AuditedContext, key: string, value: string): void {
  const ev = ctx.state.audit?.event;
  if (!ev) return;
  ev.annotations ??= {};
  if (!(key in ev.annotations)) ev.annotations[key] = value;
}
