/**
 * The Events a replica controller records about itself (upstream 1.33
 * pkg/controller/controller_utils.go RealPodControl: `SuccessfulCreate` "Created pod: <name>",
 * `FailedCreate` "Error creating: <err>", `SuccessfulDelete` "Deleted pod: <name>",
 * `FailedDelete` "Error deleting: <err>"), written as core/v1 Events with the controller's
 * source component (`replicaset-controller`, `replication-controller`), as client-go's legacy
 * event recorder does. Best effort: a failed write is logged, never thrown.
 */
import type { Logger } from 'pino';
import type { ApiObject } from '../../api/object.js';
import type { WriterInfo } from '../../registry/access.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { legacyEvent, recordLegacyEvent } from '../events.js';
import type { Workload, WorkloadKind } from './workload.js';

/** The reasons the controller reports. */
export type ReplicaEventReason = 'SuccessfulCreate' | 'FailedCreate' | 'SuccessfulDelete' | 'FailedDelete';

/** The core/v1 Event about `owner` (controllers/events.ts legacyEvent). */
export function replicaEvent(
  owner: Workload,
  kind: WorkloadKind,
  reason: ReplicaEventReason,
  message: string,
  now = new Date(),
): ApiObject {
  const type = reason.startsWith('Failed') ? 'Warning' : 'Normal';
  return legacyEvent(owner, kind, kind.serviceAccount, { type, reason, message }, now);
}

/** A recorder writing to `events` as `user`; failures are logged at debug level. */
export function eventRecorder(events: GenericStore, kind: WorkloadKind, user: WriterInfo, logger: Logger) {
  return (owner: Workload, reason: ReplicaEventReason, message: string): void =>
    void recordLegacyEvent(events, replicaEvent(owner, kind, reason, message), user, logger);
}
