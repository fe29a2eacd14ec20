/**
 * Admission hooks a store runs around its writes (upstream admission plugins plus the
 * allocation steps of the service REST). Implemented in `admission/`, installed on stores at
 * wiring time, so every write path — HTTP handlers and controllers alike — passes through them.
 */
import type { ApiObject } from '../api/object.js';
import type { WriterInfo } from './access.js';

/** Undo what a hook did when the write it prepared does not happen (e.g. release an IP). */
export type Undo = () => Promise<void>;

export type { WriterInfo };

/**
 * Who the server's own writes run as (bootstrap policy, RBAC aggregation): upstream's loopback
 * client, `system:apiserver` in `system:masters`, so checks that need a user (RBAC escalation)
 * see a privileged one rather than none.
 */
export const SERVER_WRITER: WriterInfo = Object.freeze({
  name: 'system:apiserver',
  uid: '',
  groups: Object.freeze(['system:masters']),
});

/**
 * What a hook knows of the write it runs in (upstream admission.Attributes.IsDryRun): on a dry
 * run a hook checks and fills in exactly as for a real write but keeps nothing (no IP or node
 * port stays allocated).
 */
export interface AdmissionAttributes {
  readonly dryRun: boolean;
  /** Who writes (upstream admission.Attributes.GetUserInfo); absent for the server's own writes. */
  readonly user?: WriterInfo;
  /** The subresource written (`status`), absent for the object itself (upstream GetSubresource). */
  readonly subresource?: string;
  /**
   * The object name the request addressed (upstream RequestInfo.Name): the name on an update,
   * and on a create made by a named request (server-side apply of an absent object); '' for a
   * create POSTed to the collection.
   */
  readonly requestName?: string;
}

/**
 * The steps of one admission plugin on one store. `T` is the kind's object type from its schema
 * (KindObject); a store takes the plugin as StoreHooks of ApiObject.
 */
export interface StoreHooks<T extends ApiObject = ApiObject> {
  /**
   * Mutating admission (upstream MutationInterface.Admit): runs on the decoded, defaulted
   * object of a create (`old` null) or update, before the kind's validation, so what it fills
   * in is validated. May mutate `obj`; throws ApiError to refuse the write.
   */
  mutate?(obj: T, old: T | null, attrs: AdmissionAttributes): Promise<void>;
  /** Runs after defaults and validation, before the object is stored. May mutate `obj`. */
  beforeCreate?(obj: T, attrs: AdmissionAttributes): Promise<Undo | void>;
  /** Runs on the merged object of an update, before it is stored; may run again on retries. */
  beforeUpdate?(obj: T, old: T, attrs: AdmissionAttributes): Promise<Undo | void>;
  /** Runs once an update is stored (e.g. to release what the old object held); never on a dry run. */
  afterUpdate?(obj: T, old: T): Promise<void>;
  /** Runs once the object is gone from storage; never on a dry run. */
  afterDelete?(obj: T): Promise<void>;
}

/** Run the `mutate` step of every hook in order. */
export async function runMutating(
  hooks: readonly StoreHooks[],
  obj: ApiObject,
  old: ApiObject | null,
  attrs: AdmissionAttributes,
): Promise<void> {
  for (const h of hooks) await h.mutate?.(obj, old, attrs);
}

/** Run `beforeCreate`/`beforeUpdate` of every hook, collecting one undo for all of them. */
export async function runBefore(
  hooks: readonly StoreHooks[],
  obj: ApiObject,
  old: ApiObject | null,
  attrs: AdmissionAttributes,
): Promise<Undo> {
  const undos: Undo[] = [];
  const undoAll: Undo = async () => {
    for (const u of undos.reverse()) await u().catch(() => undefined);
  };
  try {
    for (const h of hooks) {
      const undo = old ? await h.beforeUpdate?.(obj, old, attrs) : await h.beforeCreate?.(obj, attrs);
      if (undo) undos.push(undo);
    }
  } catch (err) {
    await undoAll();
    throw err;
  }
  return undoAll;
}
