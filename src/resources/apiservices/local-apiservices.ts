/**
 * The local APIServices of the group versions this server serves, as upstream's kube-apiserver
 * registers them at start (kubernetes pkg/controlplane/apiserver/aggregator.go
 * `apiServicesToRegister`/`makeAPIService`, release-1.33): named `<version>.<group>` (`v1.` for
 * the core group), no service, the priorities of upstream's table, and the label
 * `kube-aggregator.kubernetes.io/automanaged: onstart` (autoregister's AddAPIServiceToSyncOnStart).
 *
 * Priorities: upstream's release-1.33 table (`DefaultGenericAPIServicePriorities` merged with
 * cmd/kube-apiserver/app/aggregator.go `apiVersionPriorities`), plus the entries of the last
 * upstream table that listed the versions 1.33 no longer serves (extensions/v1beta1 17900/1,
 * apps v1beta1 17800/1 and v1beta2 17800/9, release-1.15). The spec's own groups (`*.ck.io`
 * and the platform's `security.platform.io`) rank below every upstream group (upstream's lowest
 * is 15800): `<name>.ck.io` gets its `<name>.k8s.io` counterpart's group priority minus 3000
 * (so 14750 for events down to 13700 for admissionregistration, in upstream's order) and the
 * counterpart version's version priority; security.platform.io/v1 gets 14900/15.
 *
 * As upstream, a group version missing from the table gets no APIService: apiregistration
 * itself (the aggregator's own group, which upstream never registers) is the one served here.
 */
import type { ResourceDefinition } from '../../registry/types.js';
import type { APIService } from './apiservices.schema.js';

export const AUTO_REGISTER_MANAGED_LABEL = 'kube-aggregator.kubernetes.io/automanaged';
/** The label's value for an APIService synced once when the controller starts. */
export const MANAGE_ON_START = 'onstart';
/** The label's value for an APIService synced continuously (upstream's CRD registration). */
export const MANAGE_CONTINUOUSLY = 'true';

interface Priority {
  readonly group: number;
  readonly version: number;
}

/** `<group>/<version>` (`/v1` for core) to upstream's priorities at release-1.33 (its whole table). */
const UPSTREAM: Readonly<Record<string, Priority>> = {
  '/v1': { group: 18000, version: 1 },
  'apps/v1': { group: 17800, version: 15 },
  'events.k8s.io/v1': { group: 17750, version: 15 },
  'events.k8s.io/v1beta1': { group: 17750, version: 5 },
  'authentication.k8s.io/v1': { group: 17700, version: 15 },
  'authentication.k8s.io/v1beta1': { group: 17700, version: 9 },
  'authentication.k8s.io/v1alpha1': { group: 17700, version: 1 },
  'authorization.k8s.io/v1': { group: 17600, version: 15 },
  'autoscaling/v1': { group: 17500, version: 15 },
  'autoscaling/v2': { group: 17500, version: 30 },
  'autoscaling/v2beta1': { group: 17500, version: 9 },
  'autoscaling/v2beta2': { group: 17500, version: 1 },
  'batch/v1': { group: 17400, version: 15 },
  'batch/v1beta1': { group: 17400, version: 9 },
  'batch/v2alpha1': { group: 17400, version: 9 },
  'certificates.k8s.io/v1': { group: 17300, version: 15 },
  'certificates.k8s.io/v1beta1': { group: 17300, version: 9 },
  'certificates.k8s.io/v1alpha1': { group: 17300, version: 1 },
  'networking.k8s.io/v1': { group: 17200, version: 15 },
  'networking.k8s.io/v1beta1': { group: 17200, version: 9 },
  'policy/v1': { group: 17100, version: 15 },
  'policy/v1beta1': { group: 17100, version: 9 },
  'rbac.authorization.k8s.io/v1': { group: 17000, version: 15 },
  'storage.k8s.io/v1': { group: 16800, version: 15 },
  'storage.k8s.io/v1beta1': { group: 16800, version: 9 },
  'storage.k8s.io/v1alpha1': { group: 16800, version: 1 },
  'apiextensions.k8s.io/v1': { group: 16700, version: 15 },
  // Served here as upstream served it until 1.22 (release-1.21's table).
  'apiextensions.k8s.io/v1beta1': { group: 16700, version: 9 },
  'admissionregistration.k8s.io/v1': { group: 16700, version: 15 },
  'admissionregistration.k8s.io/v1beta1': { group: 16700, version: 12 },
  'admissionregistration.k8s.io/v1alpha1': { group: 16700, version: 9 },
  'scheduling.k8s.io/v1': { group: 16600, version: 15 },
  'coordination.k8s.io/v1': { group: 16500, version: 15 },
  'coordination.k8s.io/v1beta1': { group: 16500, version: 13 },
  'coordination.k8s.io/v1alpha2': { group: 16500, version: 12 },
  'node.k8s.io/v1': { group: 16300, version: 15 },
  'node.k8s.io/v1beta1': { group: 16300, version: 9 },
  'node.k8s.io/v1alpha1': { group: 16300, version: 1 },
  'discovery.k8s.io/v1': { group: 16200, version: 15 },
  'discovery.k8s.io/v1beta1': { group: 16200, version: 12 },
  'resource.k8s.io/v1beta2': { group: 16200, version: 15 },
  'resource.k8s.io/v1beta1': { group: 16200, version: 9 },
  'resource.k8s.io/v1alpha3': { group: 16200, version: 1 },
  'flowcontrol.apiserver.k8s.io/v1': { group: 16100, version: 21 },
  'flowcontrol.apiserver.k8s.io/v1beta3': { group: 16100, version: 18 },
  'flowcontrol.apiserver.k8s.io/v1beta2': { group: 16100, version: 15 },
  'flowcontrol.apiserver.k8s.io/v1beta1': { group: 16100, version: 12 },
  'flowcontrol.apiserver.k8s.io/v1alpha1': { group: 16100, version: 9 },
  'internal.apiserver.k8s.io/v1alpha1': { group: 16000, version: 9 },
  'storagemigration.k8s.io/v1alpha1': { group: 15800, version: 9 },
  // Removed in 1.16; release-1.15's table.
  'extensions/v1beta1': { group: 17900, version: 1 },
  'apps/v1beta2': { group: 17800, version: 9 },
  'apps/v1beta1': { group: 17800, version: 1 },
};

/** How far below its upstream counterpart a `*.ck.io` group ranks. */
const SPEC_GROUP_OFFSET = 3000;

const SPEC: Readonly<Record<string, Priority>> = {
  'security.platform.io/v1': { group: 14900, version: 15 },
};

/** The priorities of `group`/`version`, or undefined when it gets no local APIService. */
export function apiServicePriority(group: string, version: string): Priority | undefined {
  const gv = `${group}/${version}`;
  const own = UPSTREAM[gv] ?? SPEC[gv];
  if (own) return own;
  if (!group.endsWith('.ck.io')) return undefined;
  const counterpart = UPSTREAM[`${group.slice(0, -'.ck.io'.length)}.k8s.io/${version}`];
  return counterpart && { group: counterpart.group - SPEC_GROUP_OFFSET, version: counterpart.version };
}

/** The local APIService upstream's makeAPIService builds for a group version (labelled onstart). */
function localApiService(group: string, version: string, priority: Priority): APIService {
  return {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: `${version}.${group}`, labels: { [AUTO_REGISTER_MANAGED_LABEL]: MANAGE_ON_START } },
    spec: { group, version, groupPriorityMinimum: priority.group, versionPriority: priority.version },
  };
}

/** One local APIService per group version the rows serve (as upstream: those its table lists), by name. */
export function localApiServices(rows: readonly ResourceDefinition[]): APIService[] {
  const byName = new Map<string, APIService>();
  for (const { group, version } of rows) {
    const priority = apiServicePriority(group, version);
    if (priority && !byName.has(`${version}.${group}`))
      byName.set(`${version}.${group}`, localApiService(group, version, priority));
  }
  return [...byName.values()];
}

/** What {@link crdApiServices} reads of a CustomResourceDefinition. */
interface DefinitionVersions {
  readonly spec: { readonly group: string; readonly versions: readonly { name: string; served: boolean }[] };
}

/**
 * The APIServices upstream's CRD registration controller keeps (kubernetes
 * pkg/controlplane/controller/crdregistration): one per group version a definition serves,
 * named `<version>.<group>`, local, group priority 1000 and version priority 100 ("CRDs should
 * have relatively low priority"), labelled `kube-aggregator.kubernetes.io/automanaged: true`.
 */
export function crdApiServices(crds: readonly DefinitionVersions[]): APIService[] {
  const byName = new Map<string, APIService>();
  for (const { spec } of crds)
    for (const v of spec.versions) {
      const name = `${v.name}.${spec.group}`;
      if (!v.served || byName.has(name)) continue;
      byName.set(name, {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name, labels: { [AUTO_REGISTER_MANAGED_LABEL]: MANAGE_CONTINUOUSLY } },
        spec: { group: spec.group, version: v.name, groupPriorityMinimum: 1000, versionPriority: 100 },
      });
    }
  return [...byName.values()];
}
