/**
 * DefaultTolerationSeconds admission (upstream plugin/pkg/admission/defaulttolerationseconds,
 * 1.10): a pod that does not tolerate the `node.kubernetes.io/not-ready` and
 * `node.kubernetes.io/unreachable` NoExecute taints gets tolerations for them of 300 seconds
 * (`--default-not-ready-toleration-seconds`, `--default-unreachable-toleration-seconds`), on
 * create and update of the pod itself.
 */
import type { StoreHooks } from '../registry/hooks.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { pods } from '../resources/pods/pods.resource.js';
import type { Pod } from '../resources/pods/pods.schema.js';

export const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';
export const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';

type Toleration = NonNullable<NonNullable<Pod['spec']>['tolerations']>[number];

/** The seconds a pod tolerates each taint by default (both upstream 300). */
export interface DefaultTolerationSettings {
  readonly notReadySeconds: number;
  readonly unreachableSeconds: number;
}

/** Install the plugin on the pod store. */
export function installDefaultTolerationSeconds(
  registry: ResourceRegistry,
  settings: DefaultTolerationSettings = { notReadySeconds: 300, unreachableSeconds: 300 },
): void {
  const plugin: StoreHooks<Pod> = {
    async mutate(pod, _old, attrs) {
      if (attrs.subresource || !pod.spec) return;
      const spec = pod.spec;
      const tolerations = spec.tolerations ?? [];
      // A toleration with an empty key tolerates every taint; an empty effect every effect.
      const tolerates = (taint: string) =>
        tolerations.some((t) => (!t.key || t.key === taint) && (!t.effect || t.effect === 'NoExecute'));
      const added: Toleration[] = [];
      if (!tolerates(NOT_READY_TAINT))
        added.push({
          key: NOT_READY_TAINT,
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: settings.notReadySeconds,
        });
      if (!tolerates(UNREACHABLE_TAINT))
        added.push({
          key: UNREACHABLE_TAINT,
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: settings.unreachableSeconds,
        });
      if (added.length) spec.tolerations = [...tolerations, ...added];
    },
  };
  registry.of(pods).addAdmission(plugin);
}
