/**
 * What the audit middleware (http/middleware/audit.ts) works with: a policy and where its
 * events go, and the audit state of one request.
 */
import type { AuditEvent, AuditSink } from './event.js';
import type { PolicyChecker, RequestAuditConfig } from './policy.js';

/** A policy and where its events go: what the middleware needs. */
export interface Auditor {
  readonly checker: PolicyChecker;
  readonly sink: AuditSink;
}

/** The audit state of one request, on `ctx.state.audit` while it is audited. */
export interface AuditState {
  readonly event: AuditEvent;
  readonly config: RequestAuditConfig;
}
