/**
 * Pod garbage collection for terminating pods (upstream pkg/controller/podgc): once a pod's
 * grace period has ended and it is bound to no existing Node (so no kubelet will finish it),
 * it is deleted with grace 0 and a uid precondition. Pods on existing nodes are left to their
 * kubelet, as upstream. Timers follow the pod watch; a periodic resync catches the rest.
 */
import type { Logger } from 'pino';
import { nodes } from '../resources/nodes/nodes.resource.js';
import { pods as podsResource } from '../resources/pods/pods.resource.js';
import type { Pod } from '../resources/pods/pods.schema.js';
import { ApiError } from '../errors/api-error.js';
import { finalizeDelete } from '../registry/deletion.js';
import { buildPredicate } from '../registry/predicate.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { resyncLoop, watchLoop } from './watch-loop.js';
import { errorMessage } from '../api/error-message.js';

export class PodGarbageCollector {
  private readonly abort = new AbortController();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly resyncMs = 30_000,
  ) {}

  start(): void {
    void watchLoop(
      this.registry.of(podsResource),
      this.abort.signal,
      (ev) => {
        if (ev.type === 'DELETED') this.cancel(ev.object);
        else if (ev.object.metadata.deletionTimestamp) this.schedule(ev.object);
      },
      this.logger,
    );
    resyncLoop(this.abort.signal, this.resyncMs, () => this.resync());
  }

  stop(): void {
    this.abort.abort();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private async resync(): Promise<void> {
    try {
      const pods = this.registry.of(podsResource);
      for (const pod of (await pods.list('', { predicate: buildPredicate(pods.def) })).items)
        if (pod.metadata.deletionTimestamp) this.schedule(pod);
    } catch (err) {
      this.logger.warn({ err: errorMessage(err) }, 'pod gc resync failed');
    }
  }

  private keyOf(pod: Pod): string {
    return `${pod.metadata.namespace}/${pod.metadata.name}/${pod.metadata.uid}`;
  }

  private cancel(pod: Pod): void {
    clearTimeout(this.timers.get(this.keyOf(pod)));
    this.timers.delete(this.keyOf(pod));
  }

  private schedule(pod: Pod): void {
    this.cancel(pod);
    const due = Date.parse(pod.metadata.deletionTimestamp ?? '') - Date.now();
    const timer = setTimeout(() => void this.collect(pod), Math.max(0, due) + 50);
    timer.unref();
    this.timers.set(this.keyOf(pod), timer);
  }

  private async collect(pod: Pod): Promise<void> {
    this.timers.delete(this.keyOf(pod));
    const nodeName = pod.spec?.nodeName;
    try {
      if (nodeName) {
        try {
          await this.registry.of(nodes).get('', nodeName);
          return; // the node exists: its kubelet finishes the pod
        } catch (err) {
          if (!(err instanceof ApiError && err.code === 404)) throw err;
        }
      }
      await finalizeDelete(this.registry.of(podsResource), pod.metadata.namespace ?? '', pod.metadata.name ?? '', {
        preconditions: { uid: pod.metadata.uid },
      });
      this.logger.info(
        { pod: `${pod.metadata.namespace}/${pod.metadata.name}`, node: nodeName },
        'deleted terminating pod on no existing node',
      );
    } catch (err) {
      if (!(err instanceof ApiError && (err.code === 404 || err.code === 409)))
        this.logger.warn({ err: errorMessage(err) }, 'pod gc failed');
    }
  }
}
