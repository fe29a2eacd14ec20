/**
 * Plays configured kwok Stages (stages.ts) on a pod of a simulated node, in place of the
 * built-in stages: pick the Stage matching the pod (by weight), wait its delay, then apply its
 * `next` through the API: an Event (source `kubelet`, host the node), finalizers (as the
 * server, like kwok's controller), delete (grace 0, the pod's uid as precondition, as a kubelet
 * confirms a deletion) or `status` as a JSON merge patch through `pods/status` as the node.
 * Since templates are not supported, a status write fills in what kwok's template functions
 * give: hostIP(s), podIP(s) (the node's pod CIDR; the node's IP for hostNetwork) and startTime,
 * when the pod has none.
 */
import type { Logger } from 'pino';
import { rfc3339 } from '../../api/object.js';
import { ApiError } from '../../errors/api-error.js';
import { deleteObject } from '../../registry/deletion.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { SERVER_WRITER } from '../../registry/hooks.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { events as eventsResource } from '../../resources/events/events.resource.js';
import { pods as podsResource } from '../../resources/pods/pods.resource.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { legacyEvent, recordLegacyEvent } from '../events.js';
import { nodeUser } from './node-heartbeat.js';
import { chooseStage, mergePatch, modifyFinalizers, stageDelayMs, stageMatches, type PodStage } from './stages.js';

/**
 * A pod's progress through the Stages: the one it waits on and when it applies (ms since the
 * epoch), and those applied that it has matched ever since (not applied again until it stops
 * matching them, so a Stage whose write leaves its selector matching does not loop).
 */
export interface StageState {
  readonly pending?: { readonly name: string; readonly dueMs: number };
  readonly done: readonly string[];
}

/** Where the pod runs: its node's name and IP, and its own IP (allocated on demand). */
export interface StageNode {
  readonly name: string;
  readonly internalIP: string;
  podIP(): string;
}

/** The outcome of a step: the pod's new state, and when to look again (undefined: at its next event). */
export interface StageStep {
  readonly state: StageState;
  readonly wakeMs?: number;
}

type PodStatus = NonNullable<Pod['status']>;

export class StageRunner {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly stages: readonly PodStage[],
  ) {}

  /**
   * Advance `pod` one step from `state`: keep waiting on the pending Stage while it still
   * matches, else pick one of the matching Stages not yet applied, with its delay; apply it
   * once due.
   */
  async step(pod: Pod, node: StageNode, state: StageState | undefined, nowMs: number): Promise<StageStep> {
    const matching = this.stages.filter((s) => stageMatches(s, pod));
    const names = new Set(matching.map((s) => s.metadata.name));
    const done = (state?.done ?? []).filter((n) => names.has(n));
    let pending = state?.pending && names.has(state.pending.name) ? state.pending : undefined;
    if (!pending) {
      const stage = chooseStage(matching.filter((s) => !done.includes(s.metadata.name)));
      if (!stage) return { state: { done } };
      pending = { name: stage.metadata.name, dueMs: nowMs + stageDelayMs(stage, pod, nowMs) };
    }
    if (nowMs < pending.dueMs) return { state: { pending, done }, wakeMs: pending.dueMs };
    const stage = matching.find((s) => s.metadata.name === pending.name)!;
    await this.apply(stage, pod, node);
    return { state: { done: [...done, stage.metadata.name] } };
  }

  private async apply(stage: PodStage, pod: Pod, node: StageNode): Promise<void> {
    const { next } = stage.spec;
    const namespace = pod.metadata.namespace ?? '';
    const name = pod.metadata.name ?? '';
    const uid = pod.metadata.uid;
    const store = this.registry.of(podsResource);
    this.logger.debug({ pod: `${namespace}/${name}`, stage: stage.metadata.name }, 'simulated node applies a stage');
    if (next.event) {
      const extra = { source: { component: 'kubelet', host: node.name } };
      const ev = legacyEvent(pod, { apiVersion: 'v1', kind: 'Pod' }, 'kubelet', next.event, new Date(), extra);
      void recordLegacyEvent(this.registry.of(eventsResource) as GenericStore, ev, nodeUser(node.name), this.logger);
    }
    const fin = next.finalizers;
    if (fin) {
      await store.update(
        namespace,
        name,
        (cur) => {
          if (cur.metadata.uid !== uid) throw new ApiError(409, 'Conflict', `pod ${namespace}/${name} was replaced`);
          const finalizers = modifyFinalizers(cur.metadata.finalizers ?? [], fin);
          return { ...cur, metadata: { ...cur.metadata, finalizers } };
        },
        undefined,
        { user: SERVER_WRITER },
      );
    }
    if (next.delete) {
      await deleteObject(store, namespace, name, {
        gracePeriodSeconds: 0,
        preconditions: { uid },
        user: nodeUser(node.name),
      }).catch((err: unknown) => {
        if (!(err instanceof ApiError && (err.code === 404 || err.code === 409))) throw err;
      });
      return;
    }
    if (stage.status) {
      const patch = stage.status;
      const sub = store.def.subresources.find((s) => s.name === 'status');
      await store.update(
        namespace,
        name,
        (cur) => {
          if (cur.metadata.uid !== uid) throw new ApiError(409, 'Conflict', `pod ${namespace}/${name} was replaced`);
          const status = mergePatch(cur.status ?? {}, patch) as PodStatus;
          return { ...cur, status: withAddresses(cur, status, node) };
        },
        sub,
        { user: nodeUser(node.name) },
      );
    }
  }
}

/** `status` with hostIP(s), podIP(s) and startTime filled in when missing. */
function withAddresses(pod: Pod, status: PodStatus, node: StageNode): PodStatus {
  const podIP = status.podIP ?? (pod.spec?.hostNetwork ? node.internalIP : node.podIP());
  return {
    ...status,
    hostIP: status.hostIP ?? node.internalIP,
    hostIPs: status.hostIPs ?? [{ ip: status.hostIP ?? node.internalIP }],
    podIP,
    podIPs: status.podIPs ?? [{ ip: podIP }],
    startTime: status.startTime ?? rfc3339(),
  };
}
