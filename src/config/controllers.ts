/**
 * Which of the leader's controllers run, from `--controllers` (upstream
 * kube-controller-manager's `--controllers`: "A list of controllers to enable. '*' enables all
 * on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the
 * controller named 'foo'"). A name given both ways is disabled, as upstream's IsControllerEnabled
 * checks the disabling form first. Each controller answers to its canonical name (upstream
 * cmd/kube-controller-manager/names, e.g. `replicaset-controller`) and to its older alias
 * (`replicaset`), as upstream's ControllerDescriptor aliases.
 */

/** Upstream's canonical controller names and their aliases (the names before 1.28). */
const CANONICAL_TO_ALIAS: Readonly<Record<string, string | undefined>> = {
  'endpoints-controller': 'endpoint',
  'endpointslice-controller': 'endpointslice',
  'endpointslice-mirroring-controller': 'endpointslicemirroring',
  'replicationcontroller-controller': 'replicationcontroller',
  'pod-garbage-collector-controller': 'podgc',
  'resourcequota-controller': 'resourcequota',
  'namespace-controller': 'namespace',
  'serviceaccount-controller': 'serviceaccount',
  'garbage-collector-controller': 'garbagecollector',
  'daemonset-controller': 'daemonset',
  'job-controller': 'job',
  'deployment-controller': 'deployment',
  'replicaset-controller': 'replicaset',
  'horizontal-pod-autoscaler-controller': 'horizontalpodautoscaling',
  'disruption-controller': 'disruption',
  'statefulset-controller': 'statefulset',
  'cronjob-controller': 'cronjob',
  'certificatesigningrequest-signing-controller': 'csrsigning',
  'certificatesigningrequest-approving-controller': 'csrapproving',
  'certificatesigningrequest-cleaner-controller': 'csrcleaner',
  'ttl-controller': 'ttl',
  'node-lifecycle-controller': 'nodelifecycle',
  'taint-eviction-controller': undefined,
  'persistentvolume-binder-controller': 'persistentvolume-binder',
  'persistentvolumeclaim-protection-controller': 'pvc-protection',
  'persistentvolume-protection-controller': 'pv-protection',
  'ttl-after-finished-controller': 'ttl-after-finished',
  'root-ca-certificate-publisher-controller': 'root-ca-cert-publisher',
  'ephemeral-volume-controller': 'ephemeral-volume',
  'clusterrole-aggregation-controller': 'clusterrole-aggregation',
};

const ALIAS_TO_CANONICAL = new Map(
  Object.entries(CANONICAL_TO_ALIAS)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([canonical, alias]) => [alias, canonical]),
);

/** Every name controller `name` (canonical or alias) answers to. */
export function controllerNames(name: string): string[] {
  const canonical = ALIAS_TO_CANONICAL.get(name) ?? name;
  const alias = CANONICAL_TO_ALIAS[canonical];
  return alias ? [canonical, alias] : [canonical];
}

/**
 * Whether controller `name` (canonical or alias) runs under `flag` (the flag's items; absent =
 * `['*']`). `onByDefault`: whether `*` includes it.
 */
export function controllerEnabled(flag: readonly string[] | undefined, name: string, onByDefault: boolean): boolean {
  const items = flag ?? ['*'];
  const names = controllerNames(name);
  if (names.some((n) => items.includes(`-${n}`))) return false;
  if (names.some((n) => items.includes(n))) return true;
  return items.includes('*') && onByDefault;
}
