/**
 * The node TTL table (upstream 1.33 pkg/controller/ttl/ttl_controller.go ttlBoundaries,
 * addNode, deleteNode, getDesiredTTLSeconds, updateNodeIfNeeded, patchNodeWithAnnotation): the
 * seconds a kubelet may cache the objects its pods use, written to every Node as the
 * `node.alpha.kubernetes.io/ttl` annotation, growing with the cluster's size; the ranges overlap
 * so the value does not flap around a boundary.
 */

/** The annotation (upstream v1.ObjectTTLAnnotationKey). */
export const TTL_ANNOTATION = 'node.alpha.kubernetes.io/ttl';

/** Upstream's table: a step holds while the node count is within [sizeMin, sizeMax]. */
export const TTL_BOUNDARIES: readonly {
  readonly sizeMin: number;
  readonly sizeMax: number;
  readonly ttlSeconds: number;
}[] = [
  { sizeMin: 0, sizeMax: 100, ttlSeconds: 0 },
  { sizeMin: 90, sizeMax: 500, ttlSeconds: 15 },
  { sizeMin: 450, sizeMax: 1000, ttlSeconds: 30 },
  { sizeMin: 900, sizeMax: 2000, ttlSeconds: 60 },
  { sizeMin: 1800, sizeMax: 2 ** 31 - 1, ttlSeconds: 300 },
];

/** The node count and the step of the table it is at. */
export class TtlSizer {
  constructor(
    public nodeCount = 0,
    public boundaryStep = 0,
    public desiredTtlSeconds = 0,
  ) {}

  /** A node was added (upstream addNode). */
  addNode(): void {
    this.nodeCount++;
    if (this.nodeCount > TTL_BOUNDARIES[this.boundaryStep]!.sizeMax) {
      this.boundaryStep++;
      this.desiredTtlSeconds = TTL_BOUNDARIES[this.boundaryStep]!.ttlSeconds;
    }
  }

  /** A node was deleted (upstream deleteNode). */
  deleteNode(): void {
    this.nodeCount--;
    if (this.nodeCount < TTL_BOUNDARIES[this.boundaryStep]!.sizeMin) {
      this.boundaryStep--;
      this.desiredTtlSeconds = TTL_BOUNDARIES[this.boundaryStep]!.ttlSeconds;
    }
  }
}

/** An integer annotation (upstream getIntFromAnnotation: strconv.Atoi); undefined when absent or not an integer. */
export function intAnnotation(
  annotations: Readonly<Record<string, string>> | null | undefined,
  key: string,
): number | undefined {
  const value = annotations?.[key];
  if (value === undefined || !/^[+-]?\d+$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * The merge patch setting the TTL annotation to `ttlSeconds` on a node with `annotations`
 * (upstream patchNodeWithAnnotation's two-way merge patch): `{}` when it is already so.
 */
export function ttlPatch(annotations: Readonly<Record<string, string>> | null | undefined, ttlSeconds: number): object {
  if (annotations?.[TTL_ANNOTATION] === String(ttlSeconds)) return {};
  return { metadata: { annotations: { [TTL_ANNOTATION]: String(ttlSeconds) } } };
}

/** Whether a node with `annotations` needs the patch for `desired` (upstream updateNodeIfNeeded). */
export const needsTtlUpdate = (annotations: Readonly<Record<string, string>> | null | undefined, desired: number) =>
  intAnnotation(annotations, TTL_ANNOTATION) !== desired;
