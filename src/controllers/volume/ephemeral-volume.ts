/**
 * The ephemeral volume controller (upstream pkg/controller/volume/ephemeral controller.go,
 * kube-controller-manager's `ephemeral-volume-controller`, alias `ephemeral-volume`, 1.33): for
 * each `ephemeral` volume of a pod not being deleted, the claim `<pod>-<volume>` is created from
 * the volume's claim template (its labels, annotations and spec), owned by the pod (controller,
 * blockOwnerDeletion), so it is garbage-collected with it. A claim of that name already there is
 * left alone (a claim the pod does not own keeps the pod unschedulable: VolumeBinding refuses it).
 * A failed create is reported on the pod as `FailedBinding` "PVC creation failed: ...".
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import { ApiError } from '../../errors/api-error.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { events } from '../../resources/events/events.resource.js';
import { persistentVolumeClaims } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.resource.js';
import type { PersistentVolumeClaim } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import { pods as podsResource } from '../../resources/pods/pods.resource.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { CONTROLLER_FIELD_MANAGER, controllerUser } from '../controller-user.js';
import { legacyEvent, recordLegacyEvent } from '../events.js';
import { watchLoop } from '../watch-loop.js';
import { WorkQueue } from '../work-queue.js';

/** The `--controllers` name (upstream's alias of ephemeral-volume-controller). */
export const EPHEMERAL_VOLUME_CONTROLLER = 'ephemeral-volume';

/** The claims a pod's ephemeral volumes need (upstream handleVolume's new PVCs), in volume order. */
export function ephemeralClaimsFor(pod: Pod): PersistentVolumeClaim[] {
  const out: PersistentVolumeClaim[] = [];
  for (const vol of pod.spec?.volumes ?? []) {
    const template = vol.ephemeral?.volumeClaimTemplate;
    if (!vol.ephemeral) continue;
    out.push({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: `${pod.metadata.name}-${vol.name}`,
        namespace: pod.metadata.namespace,
        ownerReferences: [
          {
            apiVersion: 'v1',
            kind: 'Pod',
            name: pod.metadata.name ?? '',
            uid: pod.metadata.uid ?? '',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
        ...(template?.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
        ...(template?.metadata?.labels ? { labels: template.metadata.labels } : {}),
      },
      spec: structuredClone(template?.spec ?? {}),
    } as PersistentVolumeClaim);
  }
  return out;
}

export class EphemeralVolumeController {
  private readonly abort = new AbortController();
  private readonly queue: WorkQueue<string>;
  private readonly user = controllerUser('ephemeral-volume-controller');

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    _opts: object = {},
  ) {
    this.queue = new WorkQueue<string>(
      (k) => k,
      (k) => this.sync(k),
      logger,
    );
  }

  start(): void {
    void watchLoop(
      this.registry.of(podsResource),
      this.abort.signal,
      (ev) => {
        const pod = ev.object;
        if (ev.type !== 'DELETED' && (pod.spec?.volumes ?? []).some((v) => v.ephemeral))
          this.queue.add(`${pod.metadata.namespace}/${pod.metadata.name}`);
      },
      this.logger,
    );
    // A claim deleted while its pod lives is made again (upstream onPVCDelete).
    void watchLoop(
      this.registry.of(persistentVolumeClaims),
      this.abort.signal,
      (ev) => {
        const owner = (ev.object.metadata.ownerReferences ?? []).find((r) => r.controller && r.kind === 'Pod');
        if (ev.type === 'DELETED' && owner) this.queue.add(`${ev.object.metadata.namespace}/${owner.name}`);
      },
      this.logger,
    );
  }

  stop(): void {
    this.abort.abort();
    this.queue.stop();
  }

  private async sync(key: string): Promise<void> {
    const [ns, name] = key.split('/') as [string, string];
    let pod: Pod;
    try {
      pod = await this.registry.of(podsResource).get(ns, name, '0');
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return;
      throw err;
    }
    if (pod.metadata.deletionTimestamp) return;
    const claims = this.registry.of(persistentVolumeClaims);
    for (const pvc of ephemeralClaimsFor(pod)) {
      try {
        await claims.create(ns, pvc, { user: this.user, fieldManager: CONTROLLER_FIELD_MANAGER });
      } catch (err) {
        if (err instanceof ApiError && err.code === 409) continue; // already there
        this.event(pod, `PVC creation failed: ${errorMessage(err)}`);
        throw err;
      }
    }
  }

  private event(pod: Pod, message: string): void {
    void recordLegacyEvent(
      this.registry.of(events) as GenericStore,
      legacyEvent(pod, { apiVersion: 'v1', kind: 'Pod' }, 'ephemeral_volume', {
        type: 'Warning',
        reason: 'FailedBinding',
        message,
      }),
      this.user,
      this.logger,
    );
  }
}
