/**
 * The simulated volume provisioner `sim.ck.io/simulated`: an external provisioner as
 * kubernetes-sigs/sig-storage-lib-external-provisioner runs one (controller.go shouldProvision,
 * provisionClaimOperation, shouldDelete, deleteVolumeOperation), making volumes the way kind's
 * local-path-provisioner does. A claim the PV controller annotated for this provisioner
 * (`volume.kubernetes.io/storage-provisioner`), of a class naming it, not yet bound, and, for a
 * WaitForFirstConsumer class, with a selected node, gets a PersistentVolume `pvc-<claim uid>`:
 * capacity the request, the claim's access modes and volume mode, the class's name, reclaim
 * policy and mount options, a hostPath /var/sim-volumes/<namespace>/<claim> (DirectoryOrCreate),
 * node affinity to the selected node's kubernetes.io/hostname, and a claimRef pre-binding it to
 * the claim; the PV controller then binds them. A Released volume it made with reclaimPolicy
 * Delete is deleted. Also: {@link ensureDefaultStorageClass}, kind's default class.
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import type { ApiObject } from '../../api/object.js';
import { buildPredicate } from '../../registry/predicate.js';
import { ApiError } from '../../errors/api-error.js';
import { deleteObject } from '../../registry/deletion.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { SERVER_WRITER } from '../../registry/hooks.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { events } from '../../resources/events/events.resource.js';
import { persistentVolumeClaims } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.resource.js';
import type { PersistentVolumeClaim } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import { persistentVolumes } from '../../resources/persistentvolumes/persistentvolumes.resource.js';
import type { PersistentVolume } from '../../resources/persistentvolumes/persistentvolumes.schema.js';
import { storageClasses } from '../../resources/storageclasses/storageclasses.resource.js';
import type { StorageClass } from '../../resources/storageclasses/storageclasses.schema.js';
import { legacyEvent, recordLegacyEvent } from '../events.js';
import { resyncLoop, watchLoop } from '../watch-loop.js';
import { WorkQueue } from '../work-queue.js';
import {
  ANN_BETA_STORAGE_PROVISIONER,
  ANN_DYNAMICALLY_PROVISIONED,
  ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER,
  claimClass,
  claimRefOf,
} from './volume-util.js';

/** The provisioner's name (StorageClass.provisioner). */
export const SIMULATED_PROVISIONER = 'sim.ck.io/simulated';
/** The default class made with simulated nodes (kind's is `standard` too). */
export const DEFAULT_CLASS_NAME = 'standard';
/** Where the simulated volumes "live". */
export const SIM_VOLUME_ROOT = '/var/sim-volumes';

/** The provisioner's writes (a cluster add-on's service account would do; the server writes itself). */
const WRITER = SERVER_WRITER;

/**
 * Whether the provisioner should make a volume for `claim` of class `cls` (sig-storage-lib
 * shouldProvision): unbound, annotated for this provisioner (or its beta annotation), the class
 * names it, and a WaitForFirstConsumer claim has its selected node.
 */
export function shouldProvision(claim: PersistentVolumeClaim, cls: StorageClass | undefined): boolean {
  if (claim.spec?.volumeName || claim.metadata.deletionTimestamp) return false;
  const ann = claim.metadata.annotations ?? {};
  const asked = ann[ANN_STORAGE_PROVISIONER] ?? ann[ANN_BETA_STORAGE_PROVISIONER];
  if (asked !== SIMULATED_PROVISIONER || cls?.provisioner !== SIMULATED_PROVISIONER) return false;
  if (cls.volumeBindingMode === 'WaitForFirstConsumer' && !ann[ANN_SELECTED_NODE]) return false;
  return true;
}

/** The PersistentVolume made for `claim` of class `cls`. */
export function provisionedVolume(claim: PersistentVolumeClaim, cls: StorageClass): PersistentVolume {
  const ns = claim.metadata.namespace ?? '';
  const node = claim.metadata.annotations?.[ANN_SELECTED_NODE];
  const storage = claim.spec?.resources?.requests?.storage ?? '0';
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: {
      name: `pvc-${claim.metadata.uid}`,
      annotations: { [ANN_DYNAMICALLY_PROVISIONED]: SIMULATED_PROVISIONER },
    },
    spec: {
      accessModes: claim.spec?.accessModes,
      capacity: { storage },
      claimRef: claimRefOf(claim),
      persistentVolumeReclaimPolicy: (cls.reclaimPolicy as 'Delete' | 'Retain' | undefined) ?? 'Delete',
      storageClassName: claimClass(claim),
      volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
      ...(cls.mountOptions?.length ? { mountOptions: cls.mountOptions } : {}),
      hostPath: { path: `${SIM_VOLUME_ROOT}/${ns}/${claim.metadata.name}`, type: 'DirectoryOrCreate' },
      ...(node
        ? {
            nodeAffinity: {
              required: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] },
                ],
              },
            },
          }
        : {}),
    },
  } as PersistentVolume;
}

/** Whether a volume is one of ours to delete (sig-storage-lib shouldDelete). */
export const shouldDelete = (volume: PersistentVolume): boolean =>
  volume.status?.phase === 'Released' &&
  volume.spec?.persistentVolumeReclaimPolicy === 'Delete' &&
  volume.metadata.annotations?.[ANN_DYNAMICALLY_PROVISIONED] === SIMULATED_PROVISIONER &&
  !volume.metadata.deletionTimestamp;

/**
 * Create the default StorageClass `standard` unless it exists (made for simulated nodes, as
 * minikube's `standard`): default-class annotation, provisioner `sim.ck.io/simulated`,
 * volumeBindingMode Immediate (so a chart's claim that no pod mounts yet is Bound, and
 * `helm install --wait` completes; a class of the user's with WaitForFirstConsumer is
 * provisioned on its first consumer's node), reclaimPolicy Delete. Returns whether it was
 * created; other errors throw.
 */
export async function ensureDefaultStorageClass(registry: ResourceRegistry): Promise<boolean> {
  try {
    await registry.of(storageClasses).create(
      '',
      {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: DEFAULT_CLASS_NAME, annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
        provisioner: SIMULATED_PROVISIONER,
        reclaimPolicy: 'Delete',
        volumeBindingMode: 'Immediate',
      } as StorageClass,
      { user: WRITER },
    );
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.code === 409) return false;
    throw err;
  }
}

type Work = { kind: 'claim'; key: string } | { kind: 'volume'; name: string };

export class SimulatedProvisioner {
  private readonly abort = new AbortController();
  private readonly queue: WorkQueue<Work>;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly opts: { readonly resyncMs?: number } = {},
  ) {
    this.queue = new WorkQueue<Work>(
      (w) => (w.kind === 'claim' ? `c/${w.key}` : `v/${w.name}`),
      (w) => (w.kind === 'claim' ? this.syncClaim(w.key) : this.syncVolume(w.name)),
      logger,
    );
  }

  start(): void {
    const signal = this.abort.signal;
    void watchLoop(
      this.registry.of(persistentVolumeClaims),
      signal,
      (ev) => {
        if (ev.type !== 'DELETED')
          this.queue.add({ kind: 'claim', key: `${ev.object.metadata.namespace}/${ev.object.metadata.name}` });
      },
      this.logger,
    );
    void watchLoop(
      this.registry.of(persistentVolumes),
      signal,
      (ev) => {
        if (ev.type !== 'DELETED') this.queue.add({ kind: 'volume', name: ev.object.metadata.name ?? '' });
      },
      this.logger,
    );
    resyncLoop(signal, this.opts.resyncMs ?? 15_000, async () => {
      const claims = this.registry.of(persistentVolumeClaims);
      const all = await claims
        .list('', { predicate: buildPredicate(claims.def), resourceVersion: '0' })
        .catch(() => ({ items: [] }));
      for (const c of all.items) this.queue.add({ kind: 'claim', key: `${c.metadata.namespace}/${c.metadata.name}` });
    });
  }

  stop(): void {
    this.abort.abort();
    this.queue.stop();
  }

  private async syncClaim(key: string): Promise<void> {
    const [ns, name] = key.split('/') as [string, string];
    const claim = await getOrUndefined(this.registry.of(persistentVolumeClaims), ns, name);
    if (!claim) return;
    const cls = await getOrUndefined(this.registry.of(storageClasses), '', claimClass(claim));
    if (!cls || !shouldProvision(claim, cls)) return;
    const volume = provisionedVolume(claim, cls);
    if (await getOrUndefined(this.registry.of(persistentVolumes), '', volume.metadata.name ?? '')) return;
    this.event(claim, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim "${key}"`);
    try {
      await this.registry.of(persistentVolumes).create('', volume, { user: WRITER });
    } catch (err) {
      if (err instanceof ApiError && err.code === 409) return;
      this.event(
        claim,
        'Warning',
        'ProvisioningFailed',
        `failed to provision volume with StorageClass "${cls?.metadata.name}": ${errorMessage(err)}`,
      );
      throw err;
    }
    this.event(claim, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${volume.metadata.name}`);
  }

  private async syncVolume(name: string): Promise<void> {
    const volume = await getOrUndefined(this.registry.of(persistentVolumes), '', name);
    if (!volume || !shouldDelete(volume)) return;
    try {
      await deleteObject(this.registry.of(persistentVolumes), '', name, {
        user: WRITER,
        preconditions: { uid: volume.metadata.uid },
      });
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
    }
  }

  private event(claim: PersistentVolumeClaim, type: 'Normal' | 'Warning', reason: string, message: string): void {
    void recordLegacyEvent(
      this.registry.of(events) as GenericStore,
      legacyEvent(claim, { apiVersion: 'v1', kind: 'PersistentVolumeClaim' }, SIMULATED_PROVISIONER, {
        type,
        reason,
        message,
      }),
      WRITER,
      this.logger,
    );
  }
}

/** The object from the watch cache, or undefined when absent (or `name` is empty). */
async function getOrUndefined<T extends ApiObject>(
  store: GenericStore<T>,
  ns: string,
  name: string,
): Promise<T | undefined> {
  if (!name) return undefined;
  try {
    return await store.get(ns, name, '0');
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) return undefined;
    throw err;
  }
}
