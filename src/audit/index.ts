/**
 * Audit logging (upstream k8s.io/apiserver pkg/audit with the `log` backend): built from the
 * `--audit-*` settings by {@link buildAuditor}; the middleware that records requests is
 * http/middleware/audit.ts.
 */
import type { Logger } from 'pino';
import type { ServerConfig } from '../config/types.js';
import { LogBackend } from './log-backend.js';
import type { Auditor } from './auditor.js';
import { loadPolicyFile, PolicyChecker } from './policy.js';
import { WriteTooLargeError } from './rotating-file.js';

export type { Auditor, AuditState } from './auditor.js';
export { addAuditAnnotation } from './annotations.js';
export {
  PolicyChecker,
  PolicyError,
  parsePolicy,
  loadPolicyFile,
  type Policy,
  type Level,
  type Stage,
} from './policy.js';
export type { AuditEvent, AuditSink } from './event.js';

/** A running audit log: the middleware's auditor plus the backend's lifecycle. */
export interface AuditLog extends Auditor {
  /** Resolves once every event so far is written (tests, shutdown). */
  flush(): Promise<void>;
  /** Write what is queued and close the file; later events are dropped. */
  close(): Promise<void>;
}

const MEGABYTE = 1024 * 1024;

/**
 * The audit log the settings ask for, or undefined when nothing is to be audited. As upstream
 * (AuditOptions.ApplyTo): the policy file is read and validated whenever it is given;
 * `--audit-log-path` without a policy records nothing (a warning says so). The log file is
 * opened now. Throws PolicyError for a bad policy, or the file system's error when the log
 * cannot be opened.
 */
export async function buildAuditor(config: ServerConfig, logger: Logger): Promise<AuditLog | undefined> {
  const policy = config.auditPolicyFile
    ? await loadPolicyFile(config.auditPolicyFile, (m) => logger.warn(m))
    : undefined;
  if (!config.auditLogPath) return undefined;
  if (!policy) {
    logger.warn('No audit policy file provided, no events will be recorded for log backend (--audit-policy-file)');
    return undefined;
  }
  const backend = new LogBackend({
    path: config.auditLogPath,
    format: config.auditLogFormat ?? 'json',
    maxSizeBytes: (config.auditLogMaxSize ?? 0) * MEGABYTE,
    maxBackups: config.auditLogMaxBackup ?? 0,
    maxAgeDays: config.auditLogMaxAge ?? 0,
    // Upstream HandlePluginError: the failure is logged with the number of events it cost.
    onError: (err, events) =>
      logger.error(
        { err },
        `Error in audit plugin 'log' affecting ${err instanceof WriteTooLargeError ? 1 : events} audit events`,
      ),
  });
  await backend.open();
  logger.info(
    { path: config.auditLogPath, format: config.auditLogFormat ?? 'json', rules: policy.rules.length },
    'audit log enabled',
  );
  return {
    checker: new PolicyChecker(policy),
    sink: backend,
    flush: () => backend.flush(),
    close: () => backend.close(),
  };
}
