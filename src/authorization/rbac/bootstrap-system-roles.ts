/**
 * The `system:*` ClusterRoles of upstream 1.33's bootstrap policy (plugin/pkg/auth/authorizer/
 * rbac/bootstrappolicy/policy.go, ClusterRoles, with 1.33's default feature gates) beyond
 * discovery and the namespace roles: the roles of nodes and their bootstrap, heapster, the
 * node problem detector, the kubelet API admin, delegated authentication, the aggregator,
 * the controller manager, the scheduler and volume scheduler, kube-dns, kube-proxy, the
 * persistent volume provisioner and the certificate signers' approvers and clients.
 */
import type { ClusterRole, PolicyRule } from '../../resources/rbac/rbac.schema.js';
import { READ, READ_UPDATE, clusterRole, core, eventsRule, rule } from './bootstrap-rules.js';

const AUTHN = 'authentication.k8s.io';
const AUTHZ = 'authorization.k8s.io';
const CERTS = 'certificates.k8s.io';
const STORAGE = 'storage.k8s.io';
const COORDINATION = 'coordination.k8s.io';

/** Upstream's NodeRules: what a kubelet needs (the Node authorizer and NodeRestriction narrow it). */
export function nodeRules(): PolicyRule[] {
  return [
    rule([AUTHN], ['tokenreviews'], ['create']),
    rule([AUTHZ], ['subjectaccessreviews', 'localsubjectaccessreviews'], ['create']),
    core(['services'], READ),
    core(['nodes'], ['create', 'get', 'list', 'watch']),
    core(['nodes/status'], ['update', 'patch']),
    core(['nodes'], ['update', 'patch']),
    core(['events'], ['create', 'update', 'patch']),
    core(['pods'], READ),
    core(['pods'], ['create', 'delete']),
    core(['pods/status'], ['update', 'patch']),
    core(['pods/eviction'], ['create']),
    core(['secrets', 'configmaps'], ['get', 'list', 'watch']),
    core(['persistentvolumeclaims', 'persistentvolumes'], ['get']),
    core(['endpoints'], ['get']),
    rule([CERTS], ['certificatesigningrequests'], ['create', 'get', 'list', 'watch']),
    rule([COORDINATION], ['leases'], ['get', 'create', 'update', 'patch', 'delete']),
    rule([STORAGE], ['volumeattachments'], ['get']),
    core(['serviceaccounts/token'], ['create']),
    core(['persistentvolumeclaims/status'], ['get', 'update', 'patch']),
    rule([STORAGE], ['csidrivers'], ['get', 'watch', 'list']),
    rule([STORAGE], ['csinodes'], ['get', 'create', 'update', 'patch', 'delete']),
    rule(['node.k8s.io'], ['runtimeclasses'], READ),
  ];
}

/** Upstream's leader-election rules of a control-plane component named `name`. */
const leaderElection = (name: string): PolicyRule[] => [
  rule([COORDINATION], ['leases'], ['create']),
  rule([COORDINATION], ['leases'], ['get', 'update'], [name]),
];

const approver = (signer: string) =>
  clusterRole(`system:certificates.k8s.io:${signer}-approver`, [
    rule([CERTS], ['signers'], ['approve'], [`kubernetes.io/${signer}`]),
  ]);

export const SYSTEM_CLUSTER_ROLES: readonly ClusterRole[] = [
  clusterRole('system:heapster', [
    core(['events', 'pods', 'nodes', 'namespaces'], READ),
    rule(['extensions'], ['deployments'], READ),
  ]),
  clusterRole('system:node', nodeRules()),
  clusterRole('system:node-problem-detector', [
    core(['nodes'], ['get']),
    core(['nodes/status'], ['patch']),
    eventsRule(),
  ]),
  clusterRole('system:kubelet-api-admin', [
    core(['nodes'], ['get', 'list', 'watch']),
    core(['nodes'], ['proxy']),
    core(['nodes/proxy', 'nodes/metrics', 'nodes/stats', 'nodes/log'], ['*']),
    // KubeletFineGrainedAuthz, beta and on by default in 1.33.
    core(['nodes/pods', 'nodes/healthz', 'nodes/configz'], ['*']),
  ]),
  clusterRole('system:node-bootstrapper', [
    rule([CERTS], ['certificatesigningrequests'], ['create', 'get', 'list', 'watch']),
  ]),
  clusterRole('system:auth-delegator', [
    rule([AUTHN], ['tokenreviews'], ['create']),
    rule([AUTHZ], ['subjectaccessreviews'], ['create']),
  ]),
  clusterRole('system:kube-aggregator', [core(['services', 'endpoints'], READ)]),
  clusterRole('system:kube-controller-manager', [
    eventsRule(),
    ...leaderElection('kube-controller-manager'),
    core(['secrets', 'serviceaccounts'], ['create']),
    core(['secrets'], ['delete']),
    core(['namespaces', 'secrets', 'serviceaccounts', 'configmaps'], ['get']),
    core(['secrets', 'serviceaccounts'], ['update']),
    rule([AUTHN], ['tokenreviews'], ['create']),
    rule([AUTHZ], ['subjectaccessreviews'], ['create']),
    rule(['*'], ['*'], ['list', 'watch']),
    core(['serviceaccounts/token'], ['create']),
  ]),
  clusterRole('system:kube-dns', [core(['endpoints', 'services'], ['list', 'watch'])]),
  clusterRole('system:persistent-volume-provisioner', [
    core(['persistentvolumes'], ['get', 'list', 'watch', 'create', 'delete']),
    core(['persistentvolumeclaims'], ['get', 'list', 'watch', 'update']),
    rule([STORAGE], ['storageclasses'], READ),
    core(['events'], ['watch']),
    eventsRule(),
  ]),
  clusterRole('system:certificates.k8s.io:certificatesigningrequests:nodeclient', [
    rule([CERTS], ['certificatesigningrequests/nodeclient'], ['create']),
  ]),
  clusterRole('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [
    rule([CERTS], ['certificatesigningrequests/selfnodeclient'], ['create']),
  ]),
  clusterRole('system:volume-scheduler', [
    core(['persistentvolumes'], READ_UPDATE),
    rule([STORAGE], ['storageclasses'], READ),
    core(['persistentvolumeclaims'], READ_UPDATE),
  ]),
  approver('legacy-unknown'),
  approver('kubelet-serving'),
  approver('kube-apiserver-client'),
  approver('kube-apiserver-client-kubelet'),
  clusterRole('system:node-proxier', [
    core(['services', 'endpoints'], ['list', 'watch']),
    core(['nodes'], READ),
    eventsRule(),
    rule(['discovery.k8s.io'], ['endpointslices'], ['list', 'watch']),
  ]),
  clusterRole('system:kube-scheduler', [
    eventsRule(),
    ...leaderElection('kube-scheduler'),
    core(['nodes'], READ),
    core(['pods'], [...READ, 'delete']),
    core(['bindings', 'pods/binding'], ['create']),
    core(['pods/status'], ['patch', 'update']),
    core(['replicationcontrollers', 'services'], READ),
    rule(['apps', 'extensions'], ['replicasets'], READ),
    rule(['apps'], ['statefulsets'], READ),
    rule(['policy'], ['poddisruptionbudgets'], READ),
    core(['persistentvolumeclaims', 'persistentvolumes'], READ),
    rule([AUTHN], ['tokenreviews'], ['create']),
    rule([AUTHZ], ['subjectaccessreviews'], ['create']),
    rule([STORAGE], ['csinodes'], READ),
    core(['namespaces'], READ),
    rule([STORAGE], ['csidrivers'], READ),
    rule([STORAGE], ['csistoragecapacities'], READ),
  ]),
];
