/**
 * The Events a replica controller records about itself (upstream 1.33
 * pkg/controller/controller_utils.go RealPodControl: `SuccessfulCreate` "Created pod: <name>",
 * `FailedCreate` "Error creating: <err>", `SuccessfulDelete` "Deleted pod: <name>",
 * `FailedDelete` "Error deleting: <err>"), written as core/v1 Events with the controller's
 * source component (`replicaset-controller`, `replication-controller`), as client-go's legacy
 * event recorder does. Best effort: a failed write is logged, never thrown.
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import type { ApiObject } from '../../api/object.js';
import type { WriterInfo } from '../../registry/access.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { Workload, WorkloadKind } from './workload.js';

/** The reasons the controller reports. */
export type ReplicaEventReason = 'SuccessfulCreate' | 'FailedCreate' | 'SuccessfulDelete' | 'FailedDelete';

/** A metav1.Time (seconds) for `d`. */
const metaTime = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The core/v1 Event about `owner` (named `<owner>.<hex ms><random>`, as the recorder's unique names). */
export function replicaEvent(
  owner: Workload,
  kind: WorkloadKind,
  reason: ReplicaEventReason,
  message: string,
  now = new Date(),
): ApiObject {
  const namespace = owner.metadata.namespace ?? '';
  const suffix = `${now.getTime().toString(16)}${Math.floor(Math.random() * 0xffff).toString(16)}`;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${owner.metadata.name}.${suffix}`, namespace },
    involvedObject: {
      apiVersion: kind.apiVersion,
      kind: kind.kind,
      name: owner.metadata.name,
      namespace,
      uid: owner.metadata.uid,
      resourceVersion: owner.metadata.resourceVersion,
    },
    reason,
    message,
    type: reason.startsWith('Failed') ? 'Warning' : 'Normal',
    source: { component: kind.serviceAccount },
    firstTimestamp: metaTime(now),
    lastTimestamp: metaTime(now),
    count: 1,
  };
}

/** A recorder writing to `events` as `user`; failures are logged at debug level. */
export function eventRecorder(events: GenericStore, kind: WorkloadKind, user: WriterInfo, logger: Logger) {
  return (owner: Workload, reason: ReplicaEventReason, message: string): void => {
    const event = replicaEvent(owner, kind, reason, message);
    events
      .create(owner.metadata.namespace ?? '', event, { user })
      .catch((err) => logger.debug({ reason, err: errorMessage(err) }, 'replica controller event not recorded'));
  };
}
