/**
 * Creating, updating and deleting a set's pods and their claims (upstream 1.33
 * pkg/controller/statefulset/stateful_pod_control.go StatefulPodControl: CreateStatefulPod,
 * UpdateStatefulPod, DeleteStatefulPod, ClaimsMatchRetentionPolicy,
 * UpdatePodClaimForRetentionPolicy, PodClaimIsStale, createMissingPersistentVolumeClaims,
 * createPersistentVolumeClaims, recordPodEvent, recordClaimEvent). Events as upstream:
 * `SuccessfulCreate` "create Pod web-0 in StatefulSet web successful", `FailedCreate` "create
 * Pod web-0 in StatefulSet web failed error: <err>", the same for update and delete, and
 * "create Claim data-web-0 Pod web-0 in StatefulSet web success" for claims.
 */
import { deepCopy } from '../../api/object.js';
import { errorMessage } from '../../api/error-message.js';
import { ApiError } from '../../errors/api-error.js';
import type { PersistentVolumeClaim } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { StatefulSet } from '../../resources/statefulsets/statefulsets.schema.js';
import { claimOwnerRefsFor, hasStaleOwnerRef, isClaimOwnerUpToDate, retentionPolicy } from './claim-retention.js';
import type { StatefulSetClient } from './client.js';
import {
  claimName,
  claimsFor,
  identityMatches,
  ordinalOf,
  storageMatches,
  updateIdentity,
  updateStorage,
} from './identity.js';

const isCode = (err: unknown, code: number) => err instanceof ApiError && err.code === code;
const alreadyExists = (err: unknown) => isCode(err, 409) && (err as ApiError).reason === 'AlreadyExists';
const title = (verb: string) => verb[0].toUpperCase() + verb.slice(1);

/** Several errors as one (upstream utilerrors.NewAggregate: `[a, b]`), the error itself when one. */
export function aggregate(errors: readonly unknown[]): unknown {
  if (errors.length <= 1) return errors[0];
  return new Error(`[${errors.map(errorMessage).join(', ')}]`);
}

/** The pod and claim operations of one sync, over a client. */
export class StatefulPodControl {
  constructor(private readonly client: StatefulSetClient) {}

  /** Upstream recordPodEvent: `Successful<Verb>` / `Failed<Verb>` about the set. */
  recordPodEvent(verb: string, set: StatefulSet, pod: Pod, err?: unknown): void {
    const name = `${pod.metadata.name}`;
    const setName = `${set.metadata.name}`;
    this.client.event(
      set,
      err === undefined
        ? {
            type: 'Normal',
            reason: `Successful${title(verb)}`,
            message: `${verb} Pod ${name} in StatefulSet ${setName} successful`,
          }
        : {
            type: 'Warning',
            reason: `Failed${title(verb)}`,
            message: `${verb} Pod ${name} in StatefulSet ${setName} failed error: ${errorMessage(err)}`,
          },
    );
  }

  private recordClaimEvent(verb: string, set: StatefulSet, pod: Pod, claim: PersistentVolumeClaim, err?: unknown) {
    const c = claim.metadata.name;
    const p = pod.metadata.name;
    const s = set.metadata.name;
    this.client.event(
      set,
      err === undefined
        ? {
            type: 'Normal',
            reason: `Successful${title(verb)}`,
            message: `${verb} Claim ${c} Pod ${p} in StatefulSet ${s} success`,
          }
        : {
            type: 'Warning',
            reason: `Failed${title(verb)}`,
            message: `${verb} Claim ${c} for Pod ${p} in StatefulSet ${s} failed error: ${errorMessage(err)}`,
          },
    );
  }

  /**
   * Create the pod's claims, then the pod, then set the claims' owners for the retention policy
   * (upstream CreateStatefulPod). An AlreadyExists pod is thrown without an Event. Throws.
   */
  async createStatefulPod(set: StatefulSet, pod: Pod): Promise<void> {
    try {
      await this.createClaims(set, pod);
    } catch (err) {
      this.recordPodEvent('create', set, pod, err);
      throw err;
    }
    let created: Pod;
    try {
      created = await this.client.createPod(pod);
    } catch (err) {
      if (!alreadyExists(err)) this.recordPodEvent('create', set, pod, err);
      throw err;
    }
    try {
      await this.updateClaimsForRetentionPolicy(set, created);
    } catch (err) {
      this.recordPodEvent('update', set, pod, err);
      throw err;
    }
    this.recordPodEvent('create', set, pod);
  }

  /**
   * Make the pod conform to the set: identity, storage (creating missing claims) and the claims'
   * owners; write the pod when anything was off, retrying with the cached pod on a conflict
   * (upstream UpdateStatefulPod). Throws the last error.
   */
  async updateStatefulPod(set: StatefulSet, original: Pod): Promise<void> {
    let pod = deepCopy(original);
    let attempted = false;
    let lastErr: unknown;
    for (let attempt = 0; attempt < 5; attempt++) {
      let consistent = true;
      if (!identityMatches(set, pod)) {
        updateIdentity(set, pod);
        consistent = false;
      }
      try {
        if (!storageMatches(set, pod)) {
          updateStorage(set, pod);
          consistent = false;
          await this.createClaims(set, pod);
        }
        if (!(await this.claimsMatchRetentionPolicy(set, pod))) {
          await this.updateClaimsForRetentionPolicy(set, pod);
          consistent = false;
        }
      } catch (err) {
        this.recordPodEvent('update', set, pod, err);
        throw err;
      }
      if (consistent) return;
      attempted = true;
      try {
        await this.client.updatePod(pod);
        lastErr = undefined;
        break;
      } catch (err) {
        lastErr = err;
        if (!isCode(err, 409)) break;
        const cached = await this.client.getPod(set.metadata.namespace ?? '', pod.metadata.name ?? '');
        if (cached) pod = deepCopy(cached);
      }
    }
    if (attempted) this.recordPodEvent('update', set, pod, lastErr);
    if (lastErr !== undefined) throw lastErr;
  }

  /** Delete the pod, recording the Event (upstream DeleteStatefulPod). Throws. */
  async deleteStatefulPod(set: StatefulSet, pod: Pod): Promise<void> {
    try {
      await this.client.deletePod(set.metadata.namespace ?? '', pod.metadata.name ?? '');
    } catch (err) {
      this.recordPodEvent('delete', set, pod, err);
      throw err;
    }
    this.recordPodEvent('delete', set, pod);
  }

  /** Whether every existing claim of the pod has the owners the policy asks for (upstream ClaimsMatchRetentionPolicy). */
  async claimsMatchRetentionPolicy(set: StatefulSet, pod: Pod): Promise<boolean> {
    const ordinal = ordinalOf(pod);
    for (const template of set.spec?.volumeClaimTemplates ?? []) {
      const claim = await this.client.getClaim(set.metadata.namespace ?? '', claimName(set, template, ordinal));
      if (claim && !isClaimOwnerUpToDate(claim, set, pod)) return false;
    }
    return true;
  }

  /** Set the owners of the pod's existing claims for the policy (upstream UpdatePodClaimForRetentionPolicy). Throws the errors together. */
  async updateClaimsForRetentionPolicy(set: StatefulSet, pod: Pod): Promise<void> {
    const ordinal = ordinalOf(pod);
    const errors: unknown[] = [];
    for (const template of set.spec?.volumeClaimTemplates ?? []) {
      const name = claimName(set, template, ordinal);
      const claim = await this.client.getClaim(set.metadata.namespace ?? '', name);
      if (!claim || isClaimOwnerUpToDate(claim, set, pod)) continue;
      try {
        await this.client.setClaimOwners(claim, claimOwnerRefsFor(claim, set, pod));
      } catch (err) {
        errors.push(new Error(`could not update claim ${name} for delete policy ownerRefs: ${errorMessage(err)}`));
      }
    }
    if (errors.length) throw aggregate(errors);
  }

  /**
   * Whether a claim of the pod still belongs to an earlier pod of the same name, so it must be
   * deleted (by the garbage collector) before the pod is created again (upstream PodClaimIsStale;
   * never with whenScaled Retain).
   */
  async podClaimIsStale(set: StatefulSet, pod: Pod): Promise<boolean> {
    if (retentionPolicy(set).whenScaled === 'Retain') return false;
    for (const claim of claimsFor(set, pod).values()) {
      const found = await this.client.getClaim(claim.metadata.namespace ?? '', claim.metadata.name ?? '');
      if (found && hasStaleOwnerRef(found, pod, { apiVersion: 'v1', kind: 'Pod' })) return true;
    }
    return false;
  }

  /** Create the claims of a pod that exists but misses some (upstream createMissingPersistentVolumeClaims). */
  async createMissingClaims(set: StatefulSet, pod: Pod): Promise<void> {
    await this.createClaims(set, pod);
    await this.updateClaimsForRetentionPolicy(set, pod);
  }

  /**
   * Create each claim of the pod that does not exist (upstream createPersistentVolumeClaims);
   * a claim being deleted is an error. Throws the errors together.
   */
  async createClaims(set: StatefulSet, pod: Pod): Promise<void> {
    const errors: unknown[] = [];
    for (const claim of claimsFor(set, pod).values()) {
      const name = claim.metadata.name ?? '';
      const found = await this.client.getClaim(claim.metadata.namespace ?? '', name);
      if (found) {
        if (found.metadata.deletionTimestamp) errors.push(new Error(`pvc ${name} is being deleted`));
        continue;
      }
      try {
        await this.client.createClaim(claim);
        this.recordClaimEvent('create', set, pod, claim);
      } catch (err) {
        errors.push(new Error(`failed to create PVC ${name}: ${errorMessage(err)}`));
        if (!alreadyExists(err)) this.recordClaimEvent('create', set, pod, claim, err);
      }
    }
    if (errors.length) throw aggregate(errors);
  }
}
