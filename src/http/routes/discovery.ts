/**
 * Discovery documents (upstream k8s.io/apiserver pkg/endpoints/discovery): APIVersions at
 * /api and /oapi, APIResourceList at /api/v1 and /apis/{group}/{version}, APIGroupList at
 * /apis, APIGroup at /apis/{group}. Built from the resource table and the group list.
 */
import { discoveryGroups, type GroupVersions } from '../../api/groups.js';
import type { ResourceDefinition } from '../../registry/types.js';

export interface ApiResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  group?: string;
  version?: string;
}

/**
 * The rows of one group version in upstream's discovery order: by resource name (upstream's
 * route installer sorts the paths), whatever their order in the table.
 */
export function rowsOf(defs: readonly ResourceDefinition[], group: string, version: string): ResourceDefinition[] {
  return defs
    .filter((d) => d.group === group && d.version === version)
    .sort((a, b) => (a.plural < b.plural ? -1 : a.plural > b.plural ? 1 : 0));
}

/** The APIResourceList of a group version: each resource, then each subresource entry. */
export function apiResourceList(defs: readonly ResourceDefinition[], group: string, version: string) {
  const resources: ApiResource[] = [];
  for (const def of rowsOf(defs, group, version)) {
    const r: ApiResource = {
      name: def.plural,
      singularName: def.singular,
      namespaced: def.namespaced,
      kind: def.kind,
      verbs: [...def.verbs],
    };
    if (def.shortNames.length) r.shortNames = [...def.shortNames];
    if (def.categories.length) r.categories = [...def.categories];
    resources.push(r);
    for (const sub of def.subresources) {
      // Upstream 1.10 lists no verbs for connectors (toDiscoveryKubeVerb: CONNECT -> "");
      // 1.12 started listing their methods' verbs, which aggregated discovery shows.
      const verbs = sub.connect && !sub.connect.getter ? [] : [...sub.verbs];
      const entry: ApiResource = {
        name: `${def.plural}/${sub.name}`,
        singularName: '',
        namespaced: def.namespaced,
        kind: sub.kind,
        verbs,
      };
      if (sub.apiVersion?.includes('/')) [entry.group, entry.version] = sub.apiVersion.split('/');
      resources.push(entry);
    }
  }
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources,
  };
}

/** serverAddressByClientCIDRs as upstream fills it: every client reaches the server's address. */
export function serverAddresses(hostPort: string) {
  return [{ clientCIDR: '0.0.0.0/0', serverAddress: hostPort }];
}

/** APIVersions of the legacy roots. */
export function apiVersions(hostPort: string) {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: serverAddresses(hostPort) };
}

/** One APIGroup document. */
export function apiGroup(g: GroupVersions, withAddresses?: string) {
  const versions = g.versions.map((v) => ({ groupVersion: `${g.name}/${v}`, version: v }));
  const doc: Record<string, unknown> = {
    kind: 'APIGroup',
    apiVersion: 'v1',
    name: g.name,
    versions,
    preferredVersion: versions[0],
  };
  if (withAddresses) doc.serverAddressByClientCIDRs = serverAddresses(withAddresses);
  return doc;
}

/**
 * The APIGroupList at /apis: the groups with at least one served resource, each with the
 * versions that serve something (clients such as kubectl treat an empty group version as a
 * failed discovery). Every group of the spec still answers at its own paths.
 */
export function apiGroupList(defs: readonly ResourceDefinition[]) {
  const groups = discoveryGroups(defs)
    .map((g) => ({
      ...g,
      versions: g.versions.filter((v) => defs.some((d) => d.group === g.name && d.version === v)),
    }))
    .filter((g) => g.versions.length > 0)
    .map((g) => apiGroup(g));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

/** Find a group by name, among the groups of the spec and those of `defs` (custom resources). */
export function findGroup(name: string, defs: readonly ResourceDefinition[]): GroupVersions | undefined {
  return discoveryGroups(defs).find((g) => g.name === name);
}
