/**
 * How a pod's tolerations meet a node's NoExecute taints (upstream 1.33
 * pkg/controller/tainteviction/taint_eviction.go getNoExecuteTaints and getMinTolerationTime,
 * pkg/apis/core/v1/helper GetMatchingTolerations).
 */
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { tolerates } from '../scheduler/framework.js';

/** A node's taint. */
export type Taint = NonNullable<NonNullable<Node['spec']>['taints']>[number];
/** A pod's toleration. */
export type Toleration = NonNullable<NonNullable<Pod['spec']>['tolerations']>[number];

/** The taints of effect NoExecute among `taints`. */
export function noExecuteTaints(taints: readonly Taint[] | undefined | null): Taint[] {
  return (taints ?? []).filter((t) => t.effect === 'NoExecute');
}

/**
 * Whether every taint of `taints` is tolerated by some toleration, and the tolerations that do
 * (upstream GetMatchingTolerations: for each taint the first toleration tolerating it). With no
 * taints: all tolerated, none used.
 */
export function matchingTolerations(
  taints: readonly Taint[],
  tolerations: readonly Toleration[] | undefined | null,
): { readonly allTolerated: boolean; readonly used: Toleration[] } {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const match = (tolerations ?? []).find((t) => tolerates(t, taint));
    if (!match) return { allTolerated: false, used: [] };
    used.push(match);
  }
  return { allTolerated: true, used };
}

/**
 * How long, in ms, the pod may stay given the tolerations used (upstream getMinTolerationTime):
 * 0 with no tolerations or any tolerationSeconds <= 0, the least tolerationSeconds otherwise,
 * and -1 (forever) when none of them has tolerationSeconds.
 */
export function minTolerationMs(tolerations: readonly Toleration[]): number {
  if (tolerations.length === 0) return 0;
  let min = Infinity;
  for (const t of tolerations) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Infinity ? -1 : min * 1000;
}

/** Whether two taint lists are equal, in order (upstream's reflect.DeepEqual of NoExecute taints). */
export function sameTaints(a: readonly Taint[], b: readonly Taint[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (t, i) =>
        t.key === b[i]!.key &&
        (t.value ?? '') === (b[i]!.value ?? '') &&
        t.effect === b[i]!.effect &&
        (t.timeAdded ?? '') === (b[i]!.timeAdded ?? ''),
    )
  );
}
