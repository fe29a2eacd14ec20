/**
 * The Events the scheduler reports (upstream 1.33 writes events.k8s.io/v1 Events through
 * client-go tools/events: reportingController `default-scheduler`, reportingInstance
 * `default-scheduler-<host>`, named `<pod>.<hex nanoseconds>`): `Scheduled` (action Binding,
 * Normal) and `FailedScheduling` (action Scheduling, Warning).
 */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import type { WriterInfo } from '../../registry/access.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { eventsV1 } from '../../resources/events-k8s/events-k8s.resource.js';
import type { Pod } from '../../resources/pods/pods.schema.js';

/** One event about a pod. */
export interface PodEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: 'Scheduled' | 'FailedScheduling';
  readonly action: 'Binding' | 'Scheduling';
  readonly note: string;
}

let sequence = 0n;

/** A MicroTime (RFC 3339 with microseconds) for now. */
const microTime = (now: Date): string => now.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/** The events.k8s.io/v1 Event upstream's recorder writes for `event` about `pod`. */
export function podEventObject(pod: Pod, event: PodEvent, schedulerName: string, now = new Date()) {
  const nanos = BigInt(now.getTime()) * 1_000_000n + (sequence++ % 1_000_000n);
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: `${pod.metadata.name}.${nanos.toString(16)}`, namespace: pod.metadata.namespace },
    eventTime: microTime(now),
    reportingController: schedulerName,
    reportingInstance: `${schedulerName}-${hostname()}`,
    action: event.action,
    reason: event.reason,
    regarding: {
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: pod.metadata.namespace,
      name: pod.metadata.name,
      uid: pod.metadata.uid,
      resourceVersion: pod.metadata.resourceVersion,
    },
    note: event.note,
    type: event.type,
  };
}

/** Write an event; a failure is logged, never thrown (events are best effort, as upstream's). */
export async function recordPodEvent(
  registry: ResourceRegistry,
  logger: Logger,
  user: WriterInfo,
  schedulerName: string,
  pod: Pod,
  event: PodEvent,
): Promise<void> {
  try {
    await registry
      .of(eventsV1)
      .create(pod.metadata.namespace ?? '', podEventObject(pod, event, schedulerName), { user });
  } catch (err) {
    logger.debug(
      { pod: `${pod.metadata.namespace}/${pod.metadata.name}`, err: errorMessage(err) },
      'event not written',
    );
  }
}
