/**
 * The bootstrap policy against facts of upstream 1.33's golden files
 * (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/testdata): the counts of cluster roles,
 * bindings, controller roles and namespaced objects, and the exact rules of a dozen roles.
 * Rules are compared without our `*.ck.io` group names, which upstream does not have.
 */
import { describe, expect, it } from 'vitest';
import type { PolicyRule } from '../../resources/rbac/rbac.schema.js';
import {
  BOOTSTRAP_CLUSTER_ROLE_BINDINGS,
  BOOTSTRAP_CLUSTER_ROLES,
  BOOTSTRAP_ROLE_BINDINGS,
  BOOTSTRAP_ROLES,
} from './bootstrap-policy.js';
import { isCkGroup } from './bootstrap-rules.js';

const CONTROLLER = 'system:controller:';
const upstreamRules = (rules: readonly PolicyRule[] | null | undefined) =>
  (rules ?? []).map((r) => (r.apiGroups ? { ...r, apiGroups: r.apiGroups.filter((g) => !isCkGroup(g)) } : r));
const clusterRole = (name: string) => BOOTSTRAP_CLUSTER_ROLES.find((r) => r.metadata.name === name)!;
const rulesOf = (name: string) => upstreamRules(clusterRole(name).rules);
const r = (apiGroups: string[], resources: string[], verbs: string[], resourceNames?: string[]): PolicyRule => ({
  apiGroups,
  ...(resourceNames ? { resourceNames } : {}),
  resources,
  verbs,
});
const EVENTS = r(['', 'events.k8s.io'], ['events'], ['create', 'patch', 'update']);

describe('bootstrap policy (upstream 1.33 golden files)', () => {
  const policyRoles = BOOTSTRAP_CLUSTER_ROLES.filter((x) => !x.metadata.name!.startsWith(CONTROLLER));
  const controllerRoles = BOOTSTRAP_CLUSTER_ROLES.filter((x) => x.metadata.name!.startsWith(CONTROLLER));

  it('has the counts of cluster-roles.yaml, cluster-role-bindings.yaml and the controller and namespace files', () => {
    expect(policyRoles).toHaveLength(31);
    expect(controllerRoles).toHaveLength(35);
    const policyBindings = BOOTSTRAP_CLUSTER_ROLE_BINDINGS.filter((x) => !x.metadata.name!.startsWith(CONTROLLER));
    expect(policyBindings).toHaveLength(12);
    expect(BOOTSTRAP_CLUSTER_ROLE_BINDINGS).toHaveLength(12 + 35);
    const byNamespace = (xs: readonly { metadata: { namespace?: string | null } }[]) =>
      xs.reduce<Record<string, number>>(
        (m, x) => ({ ...m, [x.metadata.namespace!]: (m[x.metadata.namespace!] ?? 0) + 1 }),
        {},
      );
    expect(byNamespace(BOOTSTRAP_ROLES)).toEqual({ 'kube-system': 6, 'kube-public': 1 });
    expect(byNamespace(BOOTSTRAP_ROLE_BINDINGS)).toEqual({ 'kube-system': 6, 'kube-public': 1 });
    const names = BOOTSTRAP_CLUSTER_ROLES.map((x) => x.metadata.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('labels and annotates every object as upstream', () => {
    for (const o of [
      ...BOOTSTRAP_CLUSTER_ROLES,
      ...BOOTSTRAP_CLUSTER_ROLE_BINDINGS,
      ...BOOTSTRAP_ROLES,
      ...BOOTSTRAP_ROLE_BINDINGS,
    ]) {
      expect(o.metadata.labels?.['kubernetes.io/bootstrapping'], o.metadata.name ?? '').toBe('rbac-defaults');
      expect(o.metadata.annotations?.['rbac.authorization.kubernetes.io/autoupdate']).toBe('true');
    }
  });

  it('binds each controller role to its service account in kube-system', () => {
    for (const role of controllerRoles) {
      const name = role.metadata.name!;
      const binding = BOOTSTRAP_CLUSTER_ROLE_BINDINGS.find((b) => b.metadata.name === name)!;
      expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name });
      expect(binding.subjects).toEqual([
        { kind: 'ServiceAccount', name: name.slice(CONTROLLER.length), namespace: 'kube-system' },
      ]);
    }
  });

  it('binds the policy roles as cluster-role-bindings.yaml does', () => {
    const subjects = (name: string) =>
      BOOTSTRAP_CLUSTER_ROLE_BINDINGS.find((b) => b.metadata.name === name)!.subjects?.map(
        (s) => `${s.kind}:${s.namespace ? s.namespace + '/' : ''}${s.name}`,
      );
    expect(subjects('system:node')).toEqual([]);
    expect(subjects('system:node-proxier')).toEqual(['User:system:kube-proxy']);
    expect(subjects('system:kube-dns')).toEqual(['ServiceAccount:kube-system/kube-dns']);
    expect(subjects('system:volume-scheduler')).toEqual(['User:system:kube-scheduler']);
    expect(subjects('system:kube-controller-manager')).toEqual(['User:system:kube-controller-manager']);
    expect(subjects('system:service-account-issuer-discovery')).toEqual(['Group:system:serviceaccounts']);
  });

  it('gives system:node its rules on nodes/status, leases and the rest', () => {
    const rules = rulesOf('system:node');
    expect(rules).toHaveLength(22);
    expect(rules).toContainEqual(r([''], ['nodes/status'], ['patch', 'update']));
    expect(rules).toContainEqual(
      r(['coordination.k8s.io'], ['leases'], ['create', 'delete', 'get', 'patch', 'update']),
    );
    expect(rules).toContainEqual(r([''], ['configmaps', 'secrets'], ['get', 'list', 'watch']));
    expect(rules).toContainEqual(r(['storage.k8s.io'], ['csinodes'], ['create', 'delete', 'get', 'patch', 'update']));
  });

  it('has the exact rules of a dozen roles', () => {
    expect(rulesOf('system:auth-delegator')).toEqual([
      r(['authentication.k8s.io'], ['tokenreviews'], ['create']),
      r(['authorization.k8s.io'], ['subjectaccessreviews'], ['create']),
    ]);
    expect(rulesOf('system:controller:deployment-controller')).toEqual([
      r(['apps', 'extensions'], ['deployments'], ['get', 'list', 'update', 'watch']),
      r(['apps', 'extensions'], ['deployments/status'], ['update']),
      r(['apps', 'extensions'], ['deployments/finalizers'], ['update']),
      r(['apps', 'extensions'], ['replicasets'], ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']),
      r([''], ['pods'], ['get', 'list', 'update', 'watch']),
      EVENTS,
    ]);
    expect(rulesOf('system:kube-dns')).toEqual([r([''], ['endpoints', 'services'], ['list', 'watch'])]);
    expect(rulesOf('system:node-proxier')).toEqual([
      r([''], ['endpoints', 'services'], ['list', 'watch']),
      r([''], ['nodes'], ['get', 'list', 'watch']),
      EVENTS,
      r(['discovery.k8s.io'], ['endpointslices'], ['list', 'watch']),
    ]);
    expect(rulesOf('system:certificates.k8s.io:kubelet-serving-approver')).toEqual([
      r(['certificates.k8s.io'], ['signers'], ['approve'], ['kubernetes.io/kubelet-serving']),
    ]);
    expect(rulesOf('system:volume-scheduler')).toEqual([
      r([''], ['persistentvolumes'], ['get', 'list', 'patch', 'update', 'watch']),
      r(['storage.k8s.io'], ['storageclasses'], ['get', 'list', 'watch']),
      r([''], ['persistentvolumeclaims'], ['get', 'list', 'patch', 'update', 'watch']),
    ]);
    expect(rulesOf('system:controller:namespace-controller')).toEqual([
      r([''], ['namespaces'], ['delete', 'get', 'list', 'watch']),
      r([''], ['namespaces/finalize', 'namespaces/status'], ['update']),
      r(['*'], ['*'], ['delete', 'deletecollection', 'get', 'list', 'watch']),
    ]);
    expect(rulesOf('system:controller:clusterrole-aggregation-controller')).toEqual([
      r(['rbac.authorization.k8s.io'], ['clusterroles'], ['escalate', 'get', 'list', 'patch', 'update', 'watch']),
    ]);
    expect(rulesOf('system:kube-controller-manager').slice(0, 3)).toEqual([
      EVENTS,
      r(['coordination.k8s.io'], ['leases'], ['create']),
      r(['coordination.k8s.io'], ['leases'], ['get', 'update'], ['kube-controller-manager']),
    ]);
    expect(rulesOf('system:kube-scheduler')).toHaveLength(18);
    expect(rulesOf('system:controller:statefulset-controller')).toHaveLength(10);
  });

  it('has upstream edit rules: events and leases written, endpoints only read', () => {
    const edit = rulesOf('system:aggregate-to-edit');
    expect(edit).toHaveLength(13);
    expect(edit).toContainEqual(
      r(
        [''],
        [
          'configmaps',
          'events',
          'persistentvolumeclaims',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'secrets',
          'serviceaccounts',
          'services',
          'services/proxy',
        ],
        ['create', 'delete', 'deletecollection', 'patch', 'update'],
      ),
    );
    expect(edit).toContainEqual(
      r(
        ['coordination.k8s.io'],
        ['leases'],
        ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      ),
    );
    expect(rulesOf('system:aggregate-to-view')).toHaveLength(10);
    expect(rulesOf('system:aggregate-to-admin')).toHaveLength(2);
  });

  it('lets the extension-apiserver-authentication-reader read one ConfigMap in kube-system', () => {
    const reader = BOOTSTRAP_ROLES.find((x) => x.metadata.name === 'extension-apiserver-authentication-reader')!;
    expect(reader.metadata.namespace).toBe('kube-system');
    expect(upstreamRules(reader.rules)).toEqual([
      r([''], ['configmaps'], ['get', 'list', 'watch'], ['extension-apiserver-authentication']),
    ]);
    const binding = BOOTSTRAP_ROLE_BINDINGS.find(
      (x) => x.metadata.name === 'system::extension-apiserver-authentication-reader',
    )!;
    expect(binding.roleRef?.name).toBe('extension-apiserver-authentication-reader');
    expect(binding.subjects?.map((s) => s.name)).toEqual(['system:kube-controller-manager', 'system:kube-scheduler']);
  });
});
