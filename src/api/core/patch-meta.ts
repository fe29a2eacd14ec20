/**
 * Strategic-merge-patch metadata of the core types: for each list field, its patch strategy
 * and merge key, exactly as upstream's struct tags say (k8s.io/api core/v1 types.go 1.10,
 * `patchStrategy` / `patchMergeKey`). Lists not named here are replaced as a whole (atomic).
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
}

/** A list merged by `key`, its elements described by `items`. */
export const mergeBy = (key: string, items?: PatchMeta): PatchMeta => ({ merge: { key }, items });
/** A list of primitives merged as a set (finalizers). */
const primitiveSet: PatchMeta = { merge: {} };

export const objectMetaPatch: PatchMeta = {
  fields: { finalizers: primitiveSet, ownerReferences: mergeBy('uid'), initializers: { fields: { pending: mergeBy('name') } } },
};

const container: PatchMeta = {
  fields: {
    env: mergeBy('name'),
    ports: mergeBy('containerPort'),
    volumeMounts: mergeBy('mountPath'),
    volumeDevices: mergeBy('devicePath'),
  },
};

export const podSpecPatch: PatchMeta = {
  fields: {
    containers: mergeBy('name', container),
    initContainers: mergeBy('name', container),
    volumes: { merge: { key: 'name' }, retainKeys: true },
    imagePullSecrets: mergeBy('name'),
    hostAliases: mergeBy('ip'),
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
