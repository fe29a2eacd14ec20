/**
 * Strategic-merge-patch metadata of the core types: for each list field, its patch strategy
 * and merge key, exactly as upstream's struct tags say (k8s.io/api core/v1 types.go 1.10,
 * `patchStrategy` / `patchMergeKey`). Lists not named here are replaced as a whole (atomic).
 *
 * The same tree carries what server-side apply needs (today's k8s.io/api core/v1 tags
 * `+listType`, `+listMapKey`, `+mapType`, `+structType`, key `+default`s), only where it differs
 * from what the strategic-merge fields imply: a list merged by key is a `map` list keyed by
 * that key, a keyless merged list is a `set`, any other list is `atomic`, and objects are
 * granular. `api/apply/type-info.ts` reads it; strategic merge ignores the extra fields.
 */

/** Patch metadata of one field: nested fields for objects, list strategy for lists. */
export interface PatchMeta {
  /** Metadata of the fields of an object value. */
  readonly fields?: Readonly<Record<string, PatchMeta>>;
  /** For list values: merge strategy (absent = replace). */
  readonly merge?: { readonly key?: string };
  /** `retainKeys` strategy (volumes' sources). */
  readonly retainKeys?: boolean;
  /** Metadata of the elements of a list, or of the values of a map. */
  readonly items?: PatchMeta;
  /** Server-side apply list type (`+listType`); absent: derived from `merge` as above. */
  readonly listType?: 'atomic' | 'set' | 'map';
  /** Server-side apply keys of a `map` list (`+listMapKey`, in tag order); absent: `[merge.key]`. */
  readonly listMapKeys?: readonly string[];
  /** Defaults of list-map key fields (`+default`), used when an item omits them. */
  readonly keyDefaults?: Readonly<Record<string, string | number | boolean>>;
  /** Server-side apply map/struct type (`+mapType`, `+structType`): `atomic` is owned and replaced whole. */
  readonly mapType?: 'granular' | 'atomic';
}

/** A list merged by `key`, its elements described by `items`. */
export const mergeBy = (key: string, items?: PatchMeta): PatchMeta => ({ merge: { key }, items });
/** A list of primitives merged as a set (finalizers). */
const primitiveSet: PatchMeta = { merge: {} };
/** A map or struct that server-side apply owns and replaces whole (`+mapType=atomic`, `+structType=atomic`). */
export const atomicMap: PatchMeta = { mapType: 'atomic' };
/** A list merged by `key` for strategic merge, keyed by `keys` (with key defaults) for server-side apply. */
export const mergeByKeys = (key: string, keys: readonly string[], keyDefaults?: PatchMeta['keyDefaults'], items?: PatchMeta): PatchMeta => ({
  ...mergeBy(key, items),
  listMapKeys: keys,
  ...(keyDefaults ? { keyDefaults } : {}),
});
/** An object whose named fields are atomic structs (ObjectReference, LocalObjectReference, key selectors). */
const atomicFields = (...names: string[]): PatchMeta => ({ fields: Object.fromEntries(names.map((n) => [n, atomicMap])) });

export const objectMetaPatch: PatchMeta = {
  fields: { finalizers: primitiveSet, ownerReferences: mergeBy('uid'), initializers: { fields: { pending: mergeBy('name') } } },
};

const envVar: PatchMeta = { fields: { valueFrom: atomicFields('fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef') } };

const container: PatchMeta = {
  fields: {
    env: mergeBy('name', envVar),
    // Upstream keys container ports by containerPort and protocol (protocol defaults to TCP).
    ports: mergeByKeys('containerPort', ['containerPort', 'protocol'], { protocol: 'TCP' }),
    volumeMounts: mergeBy('mountPath'),
    volumeDevices: mergeBy('devicePath'),
  },
};

/** Volume sources whose `secretRef` is a LocalObjectReference (atomic). */
const volumeSecretRefs: Record<string, PatchMeta> = Object.fromEntries(
  ['cephfs', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos'].map((source) => [source, atomicFields('secretRef')]),
);

export const podSpecPatch: PatchMeta = {
  fields: {
    containers: mergeBy('name', container),
    initContainers: mergeBy('name', container),
    volumes: { merge: { key: 'name' }, retainKeys: true, items: { fields: volumeSecretRefs } },
    imagePullSecrets: mergeBy('name', atomicMap),
    hostAliases: mergeBy('ip'),
    nodeSelector: atomicMap,
    affinity: { fields: { nodeAffinity: atomicFields('requiredDuringSchedulingIgnoredDuringExecution') } },
  },
};

const conditions = mergeBy('type');

export const podStatusPatch: PatchMeta = { fields: { conditions } };

/** A pod template (`{metadata, spec}`) as in PodTemplate and ReplicationController. */
export const podTemplatePatch: PatchMeta = { fields: { metadata: objectMetaPatch, spec: podSpecPatch } };

/** Patch metadata of a whole object of a kind, given its own top-level fields. */
export function kindPatch(fields: Record<string, PatchMeta> = {}): PatchMeta {
  return { fields: { metadata: objectMetaPatch, ...fields } };
}

export const conditionsStatusPatch: PatchMeta = { fields: { conditions } };

// Kinds whose resource rows still spell their metadata inline with strategic-merge facts only:
// the same trees with what server-side apply adds (swap them in on the rows; strategic merge
// and OpenAPI patch extensions are unchanged, as patch-meta tests check).

/** Service: ports keyed by port and protocol (protocol defaults to TCP); the selector is atomic. */
export const servicePatch: PatchMeta = kindPatch({
  spec: { fields: { ports: mergeByKeys('port', ['port', 'protocol'], { protocol: 'TCP' }), selector: atomicMap } },
});

/** ServiceAccount: secrets are ObjectReferences (atomic structs) keyed by name. */
export const serviceAccountPatch: PatchMeta = kindPatch({ secrets: mergeBy('name', atomicMap) });

/** ReplicationController: the selector is an atomic map. */
export const replicationControllerPatch: PatchMeta = kindPatch({
  spec: { fields: { selector: atomicMap, template: podTemplatePatch } },
  status: conditionsStatusPatch,
});

/** Event: involvedObject and related are ObjectReferences (atomic structs). */
export const eventPatch: PatchMeta = kindPatch({ involvedObject: atomicMap, related: atomicMap });

/** Binding: target is an ObjectReference (atomic struct). */
export const bindingPatch: PatchMeta = kindPatch({ target: atomicMap });

/** PersistentVolume: claimRef and the sources' secretRef are atomic references. */
export const persistentVolumePatch: PatchMeta = kindPatch({
  spec: { fields: { claimRef: atomicMap, ...volumeSecretRefs } },
});
