/**
 * Admission hooks a store runs around its writes (upstream admission plugins plus the
 * allocation steps of the service REST). Implemented in `admission/`, installed on stores at
 * wiring time, so every write path — HTTP handlers and controllers alike — passes through them.
 */
import type { ApiObject } from '../api/object.js';
import type { WriterInfo } from './access.js';
import type { DeleteOptions } from './types.js';

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
  /**
   * What an AdmissionReview reports of the request (upstream admission.Attributes): the
   * operation, the resource and kind as the request addressed them, the object's namespace and
   * name, and the operation's options (a meta.k8s.io/v1 CreateOptions, UpdateOptions,
   * PatchOptions or DeleteOptions object). Set by the store on every write; absent only where a
   * caller builds attributes itself.
   */
  readonly operation?: AdmissionOperation;
  readonly resource?: GroupVersionResource;
  readonly kind?: GroupVersionKind;
  readonly namespace?: string;
  readonly name?: string;
  readonly options?: Readonly<Record<string, unknown>>;
  /** Receives `Warning` header texts (upstream warning.AddWarning); absent: warnings are dropped. */
  readonly warnings?: string[];
  /** Adds an annotation to the request's audit event (upstream Attributes.AddAnnotation); absent: dropped. */
  readonly addAuditAnnotation?: (key: string, value: string) => void;
}

/** Upstream admission.Operation. */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** A resource as a request addresses it (metav1.GroupVersionResource). */
export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

/** A kind as a request addresses it (metav1.GroupVersionKind). */
export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** What a write's options say, for {@link operationOptions}. */
export interface WriteOptionsView {
  readonly dryRun?: boolean;
  readonly fieldManager?: string;
  readonly fieldValidation?: string;
}

/**
 * The options object of an operation as an AdmissionReview carries it (upstream
 * Attributes.GetOperationOptions): `kind` CreateOptions, UpdateOptions or PatchOptions, apiVersion
 * meta.k8s.io/v1, with `dryRun: ["All"]`, `fieldManager` and `fieldValidation` when set.
 */
export function operationOptions(
  kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions',
  opts: WriteOptionsView,
): Record<string, unknown> {
  const out: Record<string, unknown> = { kind, apiVersion: 'meta.k8s.io/v1' };
  if (opts.dryRun) out.dryRun = ['All'];
  if (opts.fieldManager) out.fieldManager = opts.fieldManager;
  if (opts.fieldValidation) out.fieldValidation = opts.fieldValidation;
  return out;
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
  /**
   * Validating admission of a delete (upstream's deleteValidation): runs on the stored object
   * before it is marked or removed, on a dry run too; throws ApiError to refuse the delete.
   */
  beforeDelete?(obj: T, attrs: AdmissionAttributes): Promise<void>;
  /** Runs once an update is stored (e.g. to release what the old object held); never on a dry run. */
  afterUpdate?(obj: T, old: T): Promise<void>;
  /** Runs once the object is gone from storage; never on a dry run. */
  afterDelete?(obj: T): Promise<void>;
}

/**
 * A delete's options with who asks and where the request's warnings and audit annotations go
 * (the admission of the delete reports them).
 */
export interface DeleteRequest extends DeleteOptions {
  readonly user?: WriterInfo;
  readonly warnings?: string[];
  readonly addAuditAnnotation?: (key: string, value: string) => void;
}

/** A delete's options as an AdmissionReview carries them: a meta.k8s.io/v1 DeleteOptions object. */
export function deleteOptionsObject(opts: DeleteOptions): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' };
  if (opts.gracePeriodSeconds !== undefined) out.gracePeriodSeconds = opts.gracePeriodSeconds;
  if (opts.preconditions) out.preconditions = { ...opts.preconditions };
  if (opts.orphanDependents !== undefined) out.orphanDependents = opts.orphanDependents;
  if (opts.propagationPolicy) out.propagationPolicy = opts.propagationPolicy;
  if (opts.dryRun) out.dryRun = ['All'];
  return out;
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
