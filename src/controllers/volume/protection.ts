/**
 * The pvc-protection and pv-protection controllers (upstream pkg/controller/volume/pvcprotection
 * and pvprotection, 1.33): a claim being deleted keeps its `kubernetes.io/pvc-protection`
 * finalizer while a scheduled pod uses it (a persistentVolumeClaim volume naming it, or an
 * ephemeral volume whose claim it is, unless that pod is shut down: deleted with grace 0); a
 * volume being deleted keeps `kubernetes.io/pv-protection` while it is Bound. Otherwise the
 * finalizer is removed; objects not being deleted get it added (those created before
 * StorageObjectInUseProtection admission ran). Writes as
 * `system:serviceaccount:kube-system:pvc-protection-controller` / `pv-protection-controller`.
 */
import type { Logger } from 'pino';
import type { ApiObject } from '../../api/object.js';
import { ApiError } from '../../errors/api-error.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER } from '../../admission/storage-object-in-use-protection.js';
import { persistentVolumeClaims } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.resource.js';
import type { PersistentVolumeClaim } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import { persistentVolumes } from '../../resources/persistentvolumes/persistentvolumes.resource.js';
import type { PersistentVolume } from '../../resources/persistentvolumes/persistentvolumes.schema.js';
import { pods as podsResource } from '../../resources/pods/pods.resource.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { CONTROLLER_FIELD_MANAGER, controllerUser } from '../controller-user.js';
import { watchLoop } from '../watch-loop.js';
import { WorkQueue } from '../work-queue.js';

/** The `--controllers` names. */
export const PVC_PROTECTION_CONTROLLER = 'pvc-protection';
export const PV_PROTECTION_CONTROLLER = 'pv-protection';

/** Whether the object is being deleted and holds `finalizer` (upstream IsDeletionCandidate). */
export const isDeletionCandidate = (obj: ApiObject, finalizer: string): boolean =>
  !!obj.metadata.deletionTimestamp && (obj.metadata.finalizers ?? []).includes(finalizer);

/** Whether the object is live and lacks `finalizer` (upstream NeedToAddFinalizer). */
export const needToAddFinalizer = (obj: ApiObject, finalizer: string): boolean =>
  !obj.metadata.deletionTimestamp && !(obj.metadata.finalizers ?? []).includes(finalizer);

/** Whether kubelet is done with the pod or it was force-deleted (upstream podIsShutDown). */
const podIsShutDown = (pod: Pod) => !!pod.metadata.deletionTimestamp && pod.metadata.deletionGracePeriodSeconds === 0;

/** Whether a scheduled pod uses the claim (upstream podUsesPVC). */
export function podUsesClaim(pod: Pod, pvc: PersistentVolumeClaim): boolean {
  if (!pod.spec?.nodeName) return false;
  return (pod.spec.volumes ?? []).some(
    (v) =>
      v.persistentVolumeClaim?.claimName === pvc.metadata.name ||
      (!podIsShutDown(pod) &&
        !!v.ephemeral &&
        `${pod.metadata.name}-${v.name}` === pvc.metadata.name &&
        (pvc.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === pod.metadata.uid)),
  );
}

/** Whether a volume is in use (upstream pvprotection isBeingUsed: its phase is Bound). */
export const volumeInUse = (pv: PersistentVolume): boolean => pv.status?.phase === 'Bound';

/** Add or remove `finalizer` on the object `name` of `store` as `user`; a missing object is fine. */
async function setFinalizer<T extends ApiObject>(
  store: GenericStore<T>,
  ns: string,
  name: string,
  finalizer: string,
  on: boolean,
  user: ReturnType<typeof controllerUser>,
) {
  try {
    await store.update(
      ns,
      name,
      (cur) => {
        const list = (cur.metadata.finalizers ?? []).filter((f) => f !== finalizer);
        return { ...cur, metadata: { ...cur.metadata, finalizers: on ? [...list, finalizer] : list } };
      },
      undefined,
      { user, fieldManager: CONTROLLER_FIELD_MANAGER },
    );
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 404)) throw err;
  }
}

async function fresh<T extends ApiObject>(store: GenericStore<T>, ns: string, name: string): Promise<T | undefined> {
  try {
    return await store.get(ns, name);
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) return undefined;
    throw err;
  }
}

/** The pvc-protection controller. */
export class PvcProtectionController {
  private readonly abort = new AbortController();
  private readonly queue: WorkQueue<string>;
  private readonly user = controllerUser('pvc-protection-controller');

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    _opts: object = {},
  ) {
    this.queue = new WorkQueue<string>(
      (k) => k,
      (k) => this.process(k),
      logger,
    );
  }

  start(): void {
    const signal = this.abort.signal;
    void watchLoop(
      this.registry.of(persistentVolumeClaims),
      signal,
      (ev) => {
        const pvc = ev.object;
        if (
          ev.type !== 'DELETED' &&
          (needToAddFinalizer(pvc, PVC_PROTECTION_FINALIZER) || isDeletionCandidate(pvc, PVC_PROTECTION_FINALIZER))
        )
          this.queue.add(`${pvc.metadata.namespace}/${pvc.metadata.name}`);
      },
      this.logger,
    );
    void watchLoop(
      this.registry.of(podsResource),
      signal,
      (ev) => {
        const pod = ev.object;
        const phase = pod.status?.phase;
        // Only pods that stopped using claims can let a deletion go on (upstream enqueuePVCs).
        if (ev.type !== 'DELETED' && phase !== 'Succeeded' && phase !== 'Failed' && pod.spec?.nodeName) return;
        for (const v of pod.spec?.volumes ?? []) {
          if (v.persistentVolumeClaim) this.queue.add(`${pod.metadata.namespace}/${v.persistentVolumeClaim.claimName}`);
          else if (v.ephemeral) this.queue.add(`${pod.metadata.namespace}/${pod.metadata.name}-${v.name}`);
        }
      },
      this.logger,
    );
  }

  stop(): void {
    this.abort.abort();
    this.queue.stop();
  }

  private async process(key: string): Promise<void> {
    const [ns, name] = key.split('/') as [string, string];
    const store = this.registry.of(persistentVolumeClaims);
    const pvc = await fresh(store, ns, name);
    if (!pvc) return;
    if (isDeletionCandidate(pvc, PVC_PROTECTION_FINALIZER)) {
      const pods = this.registry.of(podsResource);
      // A live list (upstream askAPIServer): a pod not yet in any cache still counts.
      const live = (await pods.list(ns, { predicate: buildPredicate(pods.def) })).items;
      if (!live.some((p) => podUsesClaim(p, pvc)))
        return setFinalizer(store, ns, name, PVC_PROTECTION_FINALIZER, false, this.user);
      this.logger.debug({ pvc: key }, 'keeping PVC because it is being used');
    }
    if (needToAddFinalizer(pvc, PVC_PROTECTION_FINALIZER))
      await setFinalizer(store, ns, name, PVC_PROTECTION_FINALIZER, true, this.user);
  }
}

/** The pv-protection controller. */
export class PvProtectionController {
  private readonly abort = new AbortController();
  private readonly queue: WorkQueue<string>;
  private readonly user = controllerUser('pv-protection-controller');

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    _opts: object = {},
  ) {
    this.queue = new WorkQueue<string>(
      (k) => k,
      (k) => this.process(k),
      logger,
    );
  }

  start(): void {
    void watchLoop(
      this.registry.of(persistentVolumes),
      this.abort.signal,
      (ev) => {
        const pv = ev.object;
        if (
          ev.type !== 'DELETED' &&
          (needToAddFinalizer(pv, PV_PROTECTION_FINALIZER) || isDeletionCandidate(pv, PV_PROTECTION_FINALIZER))
        )
          this.queue.add(pv.metadata.name ?? '');
      },
      this.logger,
    );
  }

  stop(): void {
    this.abort.abort();
    this.queue.stop();
  }

  private async process(name: string): Promise<void> {
    const store = this.registry.of(persistentVolumes);
    const pv = await fresh(store, '', name);
    if (!pv) return;
    if (isDeletionCandidate(pv, PV_PROTECTION_FINALIZER) && !volumeInUse(pv))
      return setFinalizer(store, '', name, PV_PROTECTION_FINALIZER, false, this.user);
    if (needToAddFinalizer(pv, PV_PROTECTION_FINALIZER))
      await setFinalizer(store, '', name, PV_PROTECTION_FINALIZER, true, this.user);
  }
}
