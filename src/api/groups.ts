/**
 * Every API group the spec names, and upstream's groups served beside them, with their
 * versions (preferred first). `*.ck.io` groups carry upstream 1.10's versions; `*.platform.io`
 * groups the platform's v1; the `*.k8s.io` groups are upstream's names (of groups served under
 * both names, and of groups added since 1.10). Discovery serves each; a group version lists
 * only the resources this server really serves there, and /apis only groups that serve some.
 */
export interface GroupVersions {
  readonly name: string;
  /** Versions, preferred first. */
  readonly versions: readonly string[];
}

export const API_GROUPS: readonly GroupVersions[] = [
  // Upstream's names of groups also served under ours come first: clients (kubectl's REST
  // mapper) take the first group that serves a resource, and manifests and roles name these.
  // Versions: upstream's current ones first (preferred), then the 1.10 ones the spec names.
  { name: 'apiregistration.k8s.io', versions: ['v1', 'v1beta1'] },
  { name: 'apiregistration.ck.io', versions: ['v1beta1'] },
  { name: 'apps', versions: ['v1', 'v1beta2', 'v1beta1'] },
  { name: 'events.k8s.io', versions: ['v1', 'v1beta1'] },
  { name: 'events.ck.io', versions: ['v1beta1'] },
  { name: 'authentication.k8s.io', versions: ['v1'] },
  { name: 'authentication.ck.io', versions: ['v1', 'v1beta1'] },
  { name: 'authorization.k8s.io', versions: ['v1'] },
  { name: 'authorization.ck.io', versions: ['v1', 'v1beta1'] },
  { name: 'autoscaling', versions: ['v2', 'v1', 'v2beta1'] },
  { name: 'batch', versions: ['v1', 'v1beta1', 'v2alpha1'] },
  { name: 'certificates.k8s.io', versions: ['v1', 'v1beta1'] },
  { name: 'certificates.ck.io', versions: ['v1beta1'] },
  { name: 'networking.k8s.io', versions: ['v1'] },
  { name: 'networking.ck.io', versions: ['v1'] },
  { name: 'policy', versions: ['v1', 'v1beta1'] },
  { name: 'rbac.authorization.k8s.io', versions: ['v1'] },
  { name: 'rbac.authorization.ck.io', versions: ['v1', 'v1beta1'] },
  { name: 'storage.k8s.io', versions: ['v1', 'v1beta1'] },
  { name: 'storage.ck.io', versions: ['v1', 'v1beta1'] },
  { name: 'admissionregistration.k8s.io', versions: ['v1', 'v1beta1'] },
  { name: 'admissionregistration.ck.io', versions: ['v1beta1'] },
  { name: 'apiextensions.k8s.io', versions: ['v1', 'v1beta1'] },
  { name: 'scheduling.k8s.io', versions: ['v1'] },
  { name: 'coordination.k8s.io', versions: ['v1'] },
  { name: 'node.k8s.io', versions: ['v1'] },
  { name: 'discovery.k8s.io', versions: ['v1'] },
  { name: 'flowcontrol.apiserver.k8s.io', versions: ['v1'] },
  // Upstream 1.10 listed extensions before apps; today's servers no longer serve it. Listed
  // after every group that now serves its resources, so kubectl maps a bare `deployment`,
  // `ingress` or `networkpolicy` to apps and networking.k8s.io as on a cluster of today.
  { name: 'extensions', versions: ['v1beta1'] },
  { name: 'apps.platform.io', versions: ['v1'] },
  { name: 'authorization.platform.io', versions: ['v1'] },
  { name: 'build.platform.io', versions: ['v1'] },
  { name: 'image.platform.io', versions: ['v1'] },
  { name: 'network.platform.io', versions: ['v1'] },
  { name: 'oauth.platform.io', versions: ['v1'] },
  { name: 'project.platform.io', versions: ['v1'] },
  { name: 'quota.platform.io', versions: ['v1'] },
  { name: 'route.platform.io', versions: ['v1'] },
  { name: 'security.platform.io', versions: ['v1'] },
  { name: 'template.platform.io', versions: ['v1'] },
  { name: 'user.platform.io', versions: ['v1'] },
];

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * Upstream's order of versions (k8s.io/apimachinery pkg/version CompareKubeAwareVersionStrings),
 * as a sort comparator putting the preferred first: Kubernetes-like versions (`v2`, `v1`,
 * `v1beta2`, `v1alpha1`) before others; GA before beta before alpha; a higher major, then a
 * higher minor, first; other versions after them in lexical order.
 */
export function compareKubeAwareVersions(a: string, b: string): number {
  const ma = KUBE_VERSION.exec(a);
  const mb = KUBE_VERSION.exec(b);
  if (!ma || !mb) {
    if (ma) return -1;
    if (mb) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const rank = (m: RegExpExecArray) => (m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0);
  if (rank(ma) !== rank(mb)) return rank(mb) - rank(ma);
  if (ma[1] !== mb[1]) return Number(mb[1]) - Number(ma[1]);
  return Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
}

/**
 * The groups discovery lists: API_GROUPS, then the groups of `served` rows they do not name
 * (custom resources), by name, each with its versions in upstream's preference order (as
 * upstream's aggregator lists CRD groups: priority 1000, after every built-in group).
 */
export function discoveryGroups(
  served: readonly { readonly group: string; readonly version: string }[],
): GroupVersions[] {
  const known = new Set(API_GROUPS.map((g) => g.name));
  const extra = new Map<string, Set<string>>();
  for (const row of served) {
    if (!row.group || known.has(row.group)) continue;
    let versions = extra.get(row.group);
    if (!versions) extra.set(row.group, (versions = new Set()));
    versions.add(row.version);
  }
  const custom = [...extra.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, versions]) => ({ name, versions: [...versions].sort(compareKubeAwareVersions) }));
  return custom.length ? [...API_GROUPS, ...custom] : [...API_GROUPS];
}
