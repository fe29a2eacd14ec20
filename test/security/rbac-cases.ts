/**
 * The cases of the RBAC escalation suite (rbac-escalation.test.ts), each taken from one of
 * upstream Kubernetes' own tests and named after it:
 *
 * - pkg/registry/rbac/role/policybased/storage_test.go and
 *   pkg/registry/rbac/clusterrole/policybased/storage_test.go TestEscalation (users superuser,
 *   bob, steve, alice), with pkg/registry/rbac/escalation_check.go RoleEscalationAuthorized
 *   (the `escalate` verb, asked with the request's namespace and name);
 * - pkg/registry/rbac/validation/policy_comparator_test.go (TestCovers*, TestNonResourceURLCovers):
 *   what a writer holds (ownerRules) against the rules of the role written (servantRules),
 *   with upstream's expectedUncoveredRules as the rules the 403 names;
 * - test/integration/auth/rbac_test.go TestRBAC (the write-jobs / create-rolebindings /
 *   bind-any-clusterrole case: job-writer, job-writer-namespace,
 *   nonescalating-rolebinding-writer, any-rolebinding-writer, any-rolebinding-writer-namespace,
 *   user-with-no-permissions), with escalation_check.go BindingAuthorized (the `bind` verb on
 *   the referenced role, in the binding's namespace, resourceNames included) and
 *   validation/rule.go GetRoleReferenceRules (a missing role);
 * - pkg/registry/rbac/clusterrole/policybased/storage.go (the aggregationRule needs `*` on
 *   `*.*` and nonResourceURLs `*`, "must have cluster-admin privileges to use the
 *   aggregationRule") and its Update (the whole new object's rules are checked on every update);
 * - pkg/registry/rbac/helpers_test.go TestIsOnlyMutatingGCFields (an update that only changes
 *   ownerReferences or finalizers is not checked; one that changes anything else is).
 *
 * Conventions: a name starting with `~` is a cluster-scoped name local to the case (the suite
 * prefixes it with the case's id so cases never share a ClusterRole); `@target` in a rule's
 * resourceNames stands for the names of every object the case writes. URLs of upstream cases
 * that the bootstrap roles every user holds (system:discovery: `/apis`, `/apis/*`) would cover
 * are moved under `/ck-test`, so the case still shows what it showed upstream.
 */
import type { Kind, PolicyRule, WriteVerb } from './rbac-harness.js';
import { RBAC } from './rbac-harness.js';

/** Where a writer holds rules: cluster-wide, in the case's namespace, or only in another one. */
export type Scope = 'cluster' | 'namespace' | 'other-namespace';

/** Rules a writer holds, granted by the admin (a ClusterRole and a binding) before the writes. */
export interface Holding {
  readonly scope: Scope;
  readonly rules: readonly PolicyRule[];
}

/** A role the admin creates before the writes, for bindings to refer to. */
export interface RoleFixture {
  readonly kind: 'Role' | 'ClusterRole';
  readonly name: string;
  readonly rules: readonly PolicyRule[];
}

export interface RoleRef {
  readonly kind: 'Role' | 'ClusterRole';
  readonly name: string;
}

/** What an object looks like (before an update, or as written). */
export interface Content {
  readonly rules?: readonly PolicyRule[];
  /** A ClusterRole with an aggregationRule (a selector matching no role). */
  readonly aggregated?: boolean;
  readonly roleRef?: RoleRef;
  /** Users a binding binds (never a writer of the suite). */
  readonly subjects?: readonly string[];
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  /** Owned by an object of the case (a ConfigMap in its namespace, or the namespace itself). */
  readonly owned?: boolean;
  readonly finalizers?: readonly string[];
}

/** What upstream answers a write. */
export type Outcome =
  /** Let through: 201 for a create, 200 for an update. */
  | { readonly allowed: true }
  /** 403 "is attempting to grant RBAC permissions not currently held:" and these rules (upstream's uncovered rules, before compaction). */
  | { readonly forbidden: readonly PolicyRule[] }
  /** 403 "must have cluster-admin privileges to use the aggregationRule". */
  | { readonly aggregationRule: true }
  /** 404 for the role a binding refers to. */
  | { readonly roleNotFound: RoleRef }
  /** 403 from authorizing the request itself (the writer may not write this kind at all). */
  | { readonly requestForbidden: true };

export interface EscalationCase {
  /** Upstream's test and case (`TestEscalation/bob`), and what this one shows. */
  readonly name: string;
  /** The upstream file (and function) the case comes from. */
  readonly upstream: string;
  readonly kind: Kind;
  /** The writer's groups in the token file (besides system:authenticated). */
  readonly groups?: readonly string[];
  /** Whether the writer may create, update and patch this kind at all (default true). */
  readonly writeAccess?: boolean;
  readonly holds?: readonly Holding[];
  readonly roles?: readonly RoleFixture[];
  /** The object as the writer writes it. */
  readonly object: Content;
  /** The object before an update (default: a role without rules, a binding with one subject fewer). */
  readonly old?: Content;
  /** The writes made (default ALL_WRITES), each under both groups, each also as a dry run. */
  readonly verbs?: readonly WriteVerb[];
  readonly expect: Outcome;
  /** A different answer for some verbs. */
  readonly expectOn?: Partial<Record<WriteVerb, Outcome>>;
}

export const ALL_WRITES: readonly WriteVerb[] = [
  'create',
  'update',
  'patch-json',
  'patch-merge',
  'patch-strategic',
  'apply',
];
export const UPDATES: readonly WriteVerb[] = ['update', 'patch-json', 'patch-merge', 'patch-strategic', 'apply'];
const COVERS_WRITES: readonly WriteVerb[] = ['create', 'update'];

const ALLOWED: Outcome = { allowed: true };
const forbidden = (...rules: PolicyRule[]): Outcome => ({ forbidden: rules });

const GET_PODS: PolicyRule = { apiGroups: [''], resources: ['pods'], verbs: ['get'] };
const EVERYTHING: PolicyRule = { apiGroups: ['*'], resources: ['*'], verbs: ['*'] };
const EVERY_URL: PolicyRule = { nonResourceURLs: ['*'], verbs: ['*'] };
const READ_SECRETS: PolicyRule = { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] };
const READ_SECRETS_UNCOVERED = ['get', 'list', 'watch'].map((verb) => ({
  apiGroups: [''],
  resources: ['secrets'],
  verbs: [verb],
}));
/** test/integration/auth/rbac_test.go ruleWriteJobs. */
const WRITE_JOBS: PolicyRule = { apiGroups: ['batch'], resources: ['*'], verbs: ['*'] };
const escalate = (resource: string, resourceNames?: string[]): PolicyRule => ({
  apiGroups: [RBAC],
  resources: [resource],
  verbs: ['escalate'],
  ...(resourceNames ? { resourceNames } : {}),
});
const bind = (resource: string, resourceNames?: string[]): PolicyRule => ({
  apiGroups: [RBAC],
  resources: [resource],
  verbs: ['bind'],
  ...(resourceNames ? { resourceNames } : {}),
});

const ROLE_TEST = 'pkg/registry/rbac/role/policybased/storage_test.go TestEscalation';
const CLUSTERROLE_TEST = 'pkg/registry/rbac/clusterrole/policybased/storage_test.go TestEscalation';
const ESCALATION_CHECK = 'pkg/registry/rbac/escalation_check.go';
const RULE_GO = 'pkg/registry/rbac/validation/rule.go';
const COMPARATOR = 'pkg/registry/rbac/validation/policy_comparator_test.go';
const RBAC_IT = 'test/integration/auth/rbac_test.go TestRBAC';
const CLUSTERROLE_STORAGE = 'pkg/registry/rbac/clusterrole/policybased/storage.go';
const GC_FIELDS = 'pkg/registry/rbac/helpers_test.go TestIsOnlyMutatingGCFields';

/** Roles and ClusterRoles: TestEscalation of both policybased storages, and the escalate verb. */
function roleCases(): EscalationCase[] {
  const out: EscalationCase[] = [];
  for (const kind of ['Role', 'ClusterRole'] as const) {
    const upstream = kind === 'Role' ? ROLE_TEST : CLUSTERROLE_TEST;
    const resource = kind === 'Role' ? 'roles' : 'clusterroles';
    const own: Scope = kind === 'Role' ? 'namespace' : 'cluster';
    out.push(
      {
        name: 'TestEscalation/superuser: system:masters writes any rules',
        upstream,
        kind,
        groups: ['system:masters'],
        writeAccess: false,
        object: { rules: [GET_PODS] },
        expect: ALLOWED,
      },
      {
        name: 'TestEscalation/bob: holding no rules, may not grant get pods',
        upstream,
        kind,
        object: { rules: [GET_PODS] },
        expect: forbidden(GET_PODS),
      },
      {
        name: `TestEscalation/steve: the escalate verb on ${resource} lets rules through`,
        upstream,
        kind,
        holds: [{ scope: own, rules: [escalate(resource)] }],
        object: { rules: [GET_PODS] },
        expect: ALLOWED,
      },
      {
        name: 'TestEscalation/alice: * on *.* held cluster-wide covers the rules',
        upstream,
        kind,
        writeAccess: false,
        holds: [{ scope: 'cluster', rules: [EVERYTHING] }],
        object: { rules: [GET_PODS] },
        expect: ALLOWED,
      },
    );
  }
  out.push(
    {
      name: 'RoleEscalationAuthorized: escalate limited by resourceNames covers that role by name, not a POST create (whose request has no name)',
      upstream: `${ESCALATION_CHECK} RoleEscalationAuthorized`,
      kind: 'Role',
      holds: [{ scope: 'namespace', rules: [escalate('roles', ['@target'])] }],
      object: { rules: [GET_PODS] },
      verbs: [...ALL_WRITES, 'apply-create'],
      expect: ALLOWED,
      expectOn: { create: forbidden(GET_PODS) },
    },
    {
      name: 'RoleEscalationAuthorized: escalate held in another namespace does not count',
      upstream: `${ESCALATION_CHECK} RoleEscalationAuthorized`,
      kind: 'Role',
      holds: [{ scope: 'other-namespace', rules: [escalate('roles')] }],
      object: { rules: [GET_PODS] },
      expect: forbidden(GET_PODS),
    },
    {
      name: 'RoleEscalationAuthorized: escalate on roles is not escalate on clusterroles',
      upstream: `${ESCALATION_CHECK} RoleEscalationAuthorized`,
      kind: 'ClusterRole',
      holds: [{ scope: 'cluster', rules: [escalate('roles')] }],
      object: { rules: [GET_PODS] },
      expect: forbidden(GET_PODS),
    },
    {
      name: 'ConfirmNoEscalation: rules held in a namespace do not cover a ClusterRole',
      upstream: `${RULE_GO} ConfirmNoEscalation (RulesFor the request namespace, "" for a ClusterRole)`,
      kind: 'ClusterRole',
      holds: [{ scope: 'namespace', rules: [GET_PODS] }],
      object: { rules: [GET_PODS] },
      expect: forbidden(GET_PODS),
    },
    {
      name: 'ConfirmNoEscalation: rules held in another namespace do not cover a Role',
      upstream: `${RULE_GO} ConfirmNoEscalation (RulesFor the request namespace)`,
      kind: 'Role',
      holds: [{ scope: 'other-namespace', rules: [GET_PODS] }],
      object: { rules: [GET_PODS] },
      expect: forbidden(GET_PODS),
    },
    {
      name: 'ConfirmNoEscalation: the missing rules are compacted by resource and listed sorted',
      upstream: `${RULE_GO} ConfirmNoEscalation, pkg/registry/rbac/validation/policy_compact.go CompactRules`,
      kind: 'Role',
      holds: [{ scope: 'namespace', rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] }],
      object: { rules: [{ apiGroups: [''], resources: ['secrets', 'configmaps'], verbs: ['get', 'list'] }] },
      expect: forbidden(
        { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['list'] },
        { apiGroups: [''], resources: ['configmaps'], verbs: ['list'] },
      ),
    },
  );
  return out;
}

/** policy_comparator_test.go: each upstream case as a Role (or ClusterRole) the writer creates and updates. */
function coversCases(): EscalationCase[] {
  type Covers = [
    test: string,
    owner: PolicyRule[],
    servant: PolicyRule[],
    uncovered: PolicyRule[],
    kinds?: ('Role' | 'ClusterRole')[],
  ];
  const v1 = (verbs: string[], resources: string[], extra: Partial<PolicyRule> = {}): PolicyRule => ({
    apiGroups: ['v1'],
    verbs,
    resources,
    ...extra,
  });
  const g = (groups: string[], verbs: string[], resources: string[]): PolicyRule => ({
    apiGroups: groups,
    verbs,
    resources,
  });
  const url = (urls: string[], verbs: string[]): PolicyRule => ({ nonResourceURLs: urls, verbs });
  const table: Covers[] = [
    ['TestCoversExactMatch', [v1(['get'], ['builds'])], [v1(['get'], ['builds'])], [], ['Role', 'ClusterRole']],
    ['TestCoversSubresourceWildcard', [v1(['get'], ['*/scale'])], [v1(['get'], ['foo/scale'])], []],
    [
      'TestCoversMultipleRulesCoveringSingleRule',
      [v1(['delete'], ['deployments']), v1(['delete'], ['builds']), v1(['update'], ['builds', 'deployments'])],
      [v1(['delete', 'update'], ['builds', 'deployments'])],
      [],
    ],
    [
      'TestCoversMultipleAPIGroupsCoveringSingleRule',
      ['group1', 'group2'].flatMap((x) => [
        g([x], ['delete'], ['deployments']),
        g([x], ['delete'], ['builds']),
        g([x], ['update'], ['builds', 'deployments']),
      ]),
      [g(['group1', 'group2'], ['delete', 'update'], ['builds', 'deployments'])],
      [],
    ],
    [
      'TestCoversSingleAPIGroupsCoveringMultiple',
      [g(['group1', 'group2'], ['delete', 'update'], ['builds', 'deployments'])],
      ['group1', 'group2'].flatMap((x) => [
        g([x], ['delete'], ['deployments']),
        g([x], ['delete'], ['builds']),
        g([x], ['update'], ['builds', 'deployments']),
      ]),
      [],
    ],
    [
      'TestCoversMultipleRulesMissingSingleVerbResourceCombination',
      [v1(['delete', 'update'], ['builds', 'deployments']), v1(['delete'], ['pods'])],
      [v1(['delete', 'update'], ['builds', 'deployments', 'pods'])],
      [v1(['update'], ['pods'])],
      ['Role', 'ClusterRole'],
    ],
    [
      'TestCoversAPIGroupStarCoveringMultiple',
      [g(['*'], ['get'], ['roles'])],
      [g(['group1', 'group2'], ['get'], ['roles'])],
      [],
    ],
    [
      'TestCoversEnumerationNotCoveringAPIGroupStar',
      [g(['dummy-group'], ['get'], ['roles'])],
      [g(['*'], ['get'], ['roles'])],
      [g(['*'], ['get'], ['roles'])],
    ],
    ['TestCoversAPIGroupStarCoveringStar', [g(['*'], ['get'], ['roles'])], [g(['*'], ['get'], ['roles'])], []],
    ['TestCoversVerbStarCoveringMultiple', [v1(['*'], ['roles'])], [v1(['watch', 'list'], ['roles'])], []],
    [
      'TestCoversEnumerationNotCoveringVerbStar',
      [v1(['get', 'list', 'watch', 'create', 'update', 'delete', 'exec'], ['roles'])],
      [v1(['*'], ['roles'])],
      [v1(['*'], ['roles'])],
    ],
    ['TestCoversVerbStarCoveringStar', [v1(['*'], ['roles'])], [v1(['*'], ['roles'])], []],
    ['TestCoversResourceStarCoveringMultiple', [v1(['get'], ['*'])], [v1(['get'], ['resourcegroup:deployments'])], []],
    [
      'TestCoversEnumerationNotCoveringResourceStar',
      [v1(['get'], ['roles', 'resourcegroup:deployments'])],
      [v1(['get'], ['*'])],
      [v1(['get'], ['*'])],
    ],
    ['TestCoversResourceStarCoveringStar', [v1(['get'], ['*'])], [v1(['get'], ['*'])], []],
    [
      'TestCoversResourceNameEmptyCoveringMultiple',
      [v1(['get'], ['pods'])],
      [v1(['get'], ['pods'], { resourceNames: ['foo', 'bar'] })],
      [],
    ],
    [
      'TestCoversEnumerationNotCoveringResourceNameEmpty',
      [v1(['get'], ['pods'], { resourceNames: ['foo', 'bar'] })],
      [v1(['get'], ['pods'])],
      [v1(['get'], ['pods'])],
    ],
    ['TestCoversNonResourceURLs', [url(['/apis'], ['*'])], [url(['/apis'], ['*'])], [], ['ClusterRole']],
    [
      'TestCoversNonResourceURLsStar',
      [url(['*'], ['*'])],
      [url(['/apis', '/apis/v1', '/'], ['*'])],
      [],
      ['ClusterRole'],
    ],
    [
      'TestCoversNonResourceURLsStarAfterPrefixDoesntCover',
      [url(['/ck-test/*'], ['*'])],
      [url(['/ck-test', '/ck-test/v1'], ['get'])],
      [url(['/ck-test'], ['get'])],
      ['ClusterRole'],
    ],
    [
      'TestCoversNonResourceURLsStarAfterPrefix',
      [url(['/ck-test/*'], ['*'])],
      [url(['/ck-test/v1/foo', '/ck-test/v1'], ['get'])],
      [],
      ['ClusterRole'],
    ],
    [
      'TestNonResourceURLCovers {"/api/*/*", "/api/v1", false}',
      [url(['/ck-test/*/*'], ['get'])],
      [url(['/ck-test/v1'], ['get'])],
      [url(['/ck-test/v1'], ['get'])],
      ['ClusterRole'],
    ],
    [
      'TestNonResourceURLCovers {"/*/v1/*", "/api/v1", false}',
      [url(['/*/v1/*'], ['get'])],
      [url(['/ck-test/v1'], ['get'])],
      [url(['/ck-test/v1'], ['get'])],
      ['ClusterRole'],
    ],
    [
      'TestNonResourceURLCovers {"/api/v1", "/api", false}',
      [url(['/ck-test/v1'], ['get'])],
      [url(['/ck-test'], ['get'])],
      [url(['/ck-test'], ['get'])],
      ['ClusterRole'],
    ],
  ];
  return table.flatMap(([test, owner, servant, uncovered, kinds = ['Role']]) =>
    kinds.map((kind): EscalationCase => ({
      name: `${test}: ${uncovered.length ? 'not covered' : 'covered'}`,
      upstream: `${COMPARATOR} ${test.split(' ')[0]}`,
      kind,
      holds: [{ scope: kind === 'Role' ? 'namespace' : 'cluster', rules: owner }],
      object: { rules: servant },
      verbs: COVERS_WRITES,
      expect: uncovered.length ? { forbidden: uncovered } : ALLOWED,
    })),
  );
}

/** RoleBindings and ClusterRoleBindings: TestRBAC's write-jobs case, bind, and missing roles. */
function bindingCases(): EscalationCase[] {
  const writeJobs: RoleFixture = { kind: 'ClusterRole', name: '~write-jobs', rules: [WRITE_JOBS] };
  const toWriteJobs: Content = { roleRef: { kind: 'ClusterRole', name: '~write-jobs' } };
  const jobReader: RoleFixture = { kind: 'Role', name: 'job-reader', rules: [GET_PODS] };
  const bindingAuthorized = `${ESCALATION_CHECK} BindingAuthorized`;
  const refRules = `${RULE_GO} GetRoleReferenceRules`;
  const rb = (c: Omit<EscalationCase, 'kind'>): EscalationCase => ({ kind: 'RoleBinding', ...c });
  const crb = (c: Omit<EscalationCase, 'kind'>): EscalationCase => ({ kind: 'ClusterRoleBinding', ...c });
  return [
    rb({
      name: 'TestRBAC/user-with-no-permissions: cannot bind role anywhere',
      upstream: RBAC_IT,
      writeAccess: false,
      roles: [writeJobs],
      object: toWriteJobs,
      expect: { requestForbidden: true },
    }),
    rb({
      name: 'TestRBAC/job-writer-namespace: can bind the role in the namespace where it holds covering permissions',
      upstream: RBAC_IT,
      roles: [writeJobs],
      holds: [{ scope: 'namespace', rules: [WRITE_JOBS] }],
      object: toWriteJobs,
      expect: ALLOWED,
    }),
    rb({
      name: 'TestRBAC/job-writer-namespace: can only bind the role in namespaces where it holds covering permissions',
      upstream: RBAC_IT,
      roles: [writeJobs],
      holds: [{ scope: 'other-namespace', rules: [WRITE_JOBS] }],
      object: toWriteJobs,
      expect: forbidden(WRITE_JOBS),
    }),
    rb({
      name: 'TestRBAC/job-writer: can bind the role in any namespace (covering permissions held cluster-wide)',
      upstream: RBAC_IT,
      roles: [writeJobs],
      holds: [{ scope: 'cluster', rules: [WRITE_JOBS] }],
      object: toWriteJobs,
      expect: ALLOWED,
    }),
    rb({
      name: 'TestRBAC/nonescalating-rolebinding-writer: cannot bind the role without covering permissions',
      upstream: RBAC_IT,
      roles: [writeJobs],
      object: toWriteJobs,
      expect: forbidden(WRITE_JOBS),
    }),
    rb({
      name: 'TestRBAC/any-rolebinding-writer: can bind the role with bind on clusterroles',
      upstream: RBAC_IT,
      roles: [writeJobs],
      holds: [{ scope: 'cluster', rules: [bind('clusterroles')] }],
      object: toWriteJobs,
      expect: ALLOWED,
    }),
    rb({
      name: 'TestRBAC/any-rolebinding-writer-namespace: can bind the role with bind granted in the binding namespace',
      upstream: RBAC_IT,
      roles: [writeJobs],
      holds: [{ scope: 'namespace', rules: [bind('clusterroles')] }],
      object: toWriteJobs,
      expect: ALLOWED,
    }),
    rb({
      name: 'TestRBAC/any-rolebinding-writer-namespace: can only bind the role in the namespace where it has bind',
      upstream: RBAC_IT,
      roles: [writeJobs],
      holds: [{ scope: 'other-namespace', rules: [bind('clusterroles')] }],
      object: toWriteJobs,
      expect: forbidden(WRITE_JOBS),
    }),
    rb({
      name: 'BindingAuthorized: bind limited by resourceNames to the referenced role',
      upstream: bindingAuthorized,
      roles: [writeJobs],
      holds: [{ scope: 'cluster', rules: [bind('clusterroles', ['~write-jobs'])] }],
      object: toWriteJobs,
      expect: ALLOWED,
    }),
    rb({
      name: 'BindingAuthorized: bind limited by resourceNames to another role',
      upstream: bindingAuthorized,
      roles: [writeJobs],
      holds: [{ scope: 'cluster', rules: [bind('clusterroles', ['~other-role'])] }],
      object: toWriteJobs,
      expect: forbidden(WRITE_JOBS),
    }),
    rb({
      name: 'BindingAuthorized: bind on roles does not allow binding a ClusterRole',
      upstream: bindingAuthorized,
      roles: [writeJobs],
      holds: [{ scope: 'cluster', rules: [bind('roles')] }],
      object: toWriteJobs,
      expect: forbidden(WRITE_JOBS),
    }),
    rb({
      name: 'GetRoleReferenceRules: a RoleBinding to a Role is checked against the Role of its namespace (covered)',
      upstream: refRules,
      roles: [jobReader],
      holds: [{ scope: 'namespace', rules: [GET_PODS] }],
      object: { roleRef: { kind: 'Role', name: 'job-reader' } },
      expect: ALLOWED,
    }),
    rb({
      name: 'GetRoleReferenceRules: a RoleBinding to a Role is checked against the Role of its namespace (not covered)',
      upstream: refRules,
      roles: [jobReader],
      object: { roleRef: { kind: 'Role', name: 'job-reader' } },
      expect: forbidden(GET_PODS),
    }),
    rb({
      name: 'BindingAuthorized: bind on roles allows binding a Role',
      upstream: bindingAuthorized,
      roles: [jobReader],
      holds: [{ scope: 'namespace', rules: [bind('roles')] }],
      object: { roleRef: { kind: 'Role', name: 'job-reader' } },
      expect: ALLOWED,
    }),
    rb({
      name: 'GetRoleReferenceRules: a binding to a missing ClusterRole is NotFound',
      upstream: refRules,
      object: { roleRef: { kind: 'ClusterRole', name: '~missing' } },
      expect: { roleNotFound: { kind: 'ClusterRole', name: '~missing' } },
    }),
    rb({
      name: 'GetRoleReferenceRules: a binding to a missing Role is NotFound',
      upstream: refRules,
      object: { roleRef: { kind: 'Role', name: 'missing' } },
      expect: { roleNotFound: { kind: 'Role', name: 'missing' } },
    }),
    rb({
      name: 'BindingAuthorized: with bind, a binding to a missing role is let through (bind is asked first)',
      upstream: bindingAuthorized,
      holds: [{ scope: 'cluster', rules: [bind('clusterroles')] }],
      object: { roleRef: { kind: 'ClusterRole', name: '~missing' } },
      expect: ALLOWED,
    }),
    rb({
      name: 'EscalationAllowed: system:masters binds any role',
      upstream: `${ESCALATION_CHECK} EscalationAllowed`,
      groups: ['system:masters'],
      writeAccess: false,
      roles: [writeJobs],
      object: toWriteJobs,
      expect: ALLOWED,
    }),
    rb({
      name: 'ConfirmNoEscalation: a binding names the referenced rules it does not hold, compacted and sorted',
      upstream: `${RULE_GO} ConfirmNoEscalation, pkg/registry/rbac/validation/policy_compact.go CompactRules`,
      roles: [
        {
          kind: 'ClusterRole',
          name: '~readers',
          rules: [{ apiGroups: [''], resources: ['secrets', 'configmaps'], verbs: ['get', 'list'] }],
        },
      ],
      holds: [{ scope: 'namespace', rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] }],
      object: { roleRef: { kind: 'ClusterRole', name: '~readers' } },
      expect: forbidden(
        { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['list'] },
        { apiGroups: [''], resources: ['configmaps'], verbs: ['list'] },
      ),
    }),
    crb({
      name: 'TestRBAC/job-writer: covering permissions held cluster-wide allow a ClusterRoleBinding',
      upstream: RBAC_IT,
      roles: [writeJobs],
      holds: [{ scope: 'cluster', rules: [WRITE_JOBS] }],
      object: toWriteJobs,
      expect: ALLOWED,
    }),
    crb({
      name: 'TestRBAC/job-writer-namespace: rules held in a namespace do not cover a ClusterRoleBinding',
      upstream: RBAC_IT,
      roles: [writeJobs],
      holds: [{ scope: 'namespace', rules: [WRITE_JOBS] }],
      object: toWriteJobs,
      expect: forbidden(WRITE_JOBS),
    }),
    crb({
      name: 'TestRBAC/nonescalating-rolebinding-writer: cannot bind the role cluster-wide without covering permissions',
      upstream: RBAC_IT,
      roles: [writeJobs],
      object: toWriteJobs,
      expect: forbidden(WRITE_JOBS),
    }),
    crb({
      name: 'TestRBAC/any-rolebinding-writer: bind on clusterroles held cluster-wide allows a ClusterRoleBinding',
      upstream: RBAC_IT,
      roles: [writeJobs],
      holds: [{ scope: 'cluster', rules: [bind('clusterroles')] }],
      object: toWriteJobs,
      expect: ALLOWED,
    }),
    crb({
      name: 'TestRBAC/any-rolebinding-writer-namespace: bind granted in a namespace does not allow a ClusterRoleBinding',
      upstream: RBAC_IT,
      roles: [writeJobs],
      holds: [{ scope: 'namespace', rules: [bind('clusterroles')] }],
      object: toWriteJobs,
      expect: forbidden(WRITE_JOBS),
    }),
    crb({
      name: 'BindingAuthorized: bind limited by resourceNames to the referenced ClusterRole',
      upstream: bindingAuthorized,
      roles: [writeJobs],
      holds: [{ scope: 'cluster', rules: [bind('clusterroles', ['~write-jobs'])] }],
      object: toWriteJobs,
      expect: ALLOWED,
    }),
    crb({
      name: 'GetRoleReferenceRules: a ClusterRoleBinding to a missing ClusterRole is NotFound',
      upstream: refRules,
      object: { roleRef: { kind: 'ClusterRole', name: '~missing' } },
      expect: { roleNotFound: { kind: 'ClusterRole', name: '~missing' } },
    }),
    crb({
      name: 'EscalationAllowed: system:masters binds any ClusterRole cluster-wide',
      upstream: `${ESCALATION_CHECK} EscalationAllowed`,
      groups: ['system:masters'],
      writeAccess: false,
      roles: [writeJobs],
      object: toWriteJobs,
      expect: ALLOWED,
    }),
    crb({
      name: 'TestRBAC/user-with-no-permissions: cannot bind a role cluster-wide',
      upstream: RBAC_IT,
      writeAccess: false,
      roles: [writeJobs],
      object: toWriteJobs,
      expect: { requestForbidden: true },
    }),
  ];
}

/** clusterrole/policybased/storage.go: the aggregationRule asks for full authority. */
function aggregationCases(): EscalationCase[] {
  const upstream = `${CLUSTERROLE_STORAGE} Create/Update (fullAuthority)`;
  const aggregated: Content = { rules: [], aggregated: true };
  return [
    {
      name: 'aggregationRule: a writer without full authority may not set one',
      upstream,
      kind: 'ClusterRole',
      object: aggregated,
      expect: { aggregationRule: true },
    },
    {
      name: 'aggregationRule: escalate on clusterroles lets it through',
      upstream,
      kind: 'ClusterRole',
      holds: [{ scope: 'cluster', rules: [escalate('clusterroles')] }],
      object: aggregated,
      expect: ALLOWED,
    },
    {
      name: 'aggregationRule: full authority (* on *.* and nonResourceURLs *) without system:masters',
      upstream,
      kind: 'ClusterRole',
      writeAccess: false,
      holds: [{ scope: 'cluster', rules: [EVERYTHING, EVERY_URL] }],
      object: aggregated,
      expect: ALLOWED,
    },
    {
      // `*` on `*.*` itself cannot be shown short of full authority: it includes escalate on clusterroles.
      name: 'aggregationRule: * on every resource of some groups, and every URL, is not full authority',
      upstream,
      kind: 'ClusterRole',
      holds: [
        { scope: 'cluster', rules: [{ apiGroups: ['', 'apps', 'batch'], resources: ['*'], verbs: ['*'] }, EVERY_URL] },
      ],
      object: aggregated,
      expect: { aggregationRule: true },
    },
    {
      name: 'aggregationRule: the rules are checked first (a writer without them is told which)',
      upstream,
      kind: 'ClusterRole',
      object: { rules: [GET_PODS], aggregated: true },
      expect: forbidden(GET_PODS),
    },
    {
      name: 'aggregationRule: an update of an aggregated ClusterRole is checked even when only a label changes',
      upstream: `${CLUSTERROLE_STORAGE} Update (hasAggregationRule of the new or the old object)`,
      kind: 'ClusterRole',
      old: aggregated,
      object: { ...aggregated, labels: { team: 'payments' } },
      verbs: UPDATES,
      expect: { aggregationRule: true },
    },
  ];
}

/** Updates that change no rules: checked (clusterrole Update), unless only GC fields change (IsOnlyMutatingGCFields). */
function metadataCases(): EscalationCase[] {
  const secretReader: RoleFixture = { kind: 'ClusterRole', name: '~secret-reader', rules: [READ_SECRETS] };
  const toSecretReader: Content = { roleRef: { kind: 'ClusterRole', name: '~secret-reader' }, subjects: ['bound-1'] };
  const readsSecrets: Content = { rules: [READ_SECRETS] };
  return [
    {
      name: 'clusterrole Update: the rules are checked on every update (a label that aggregates a secret reader into view)',
      upstream: `${CLUSTERROLE_STORAGE} Update (ConfirmNoEscalation of the new object's rules)`,
      kind: 'ClusterRole',
      old: readsSecrets,
      object: { ...readsSecrets, labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      verbs: UPDATES,
      expect: forbidden(...READ_SECRETS_UNCOVERED),
    },
    {
      name: 'TestIsOnlyMutatingGCFields/only annotations: checked',
      upstream: GC_FIELDS,
      kind: 'Role',
      old: readsSecrets,
      object: { ...readsSecrets, annotations: { note: 'x' } },
      verbs: UPDATES,
      expect: forbidden(...READ_SECRETS_UNCOVERED),
    },
    {
      name: 'TestIsOnlyMutatingGCFields/only ownerRef: not checked',
      upstream: GC_FIELDS,
      kind: 'Role',
      old: readsSecrets,
      object: { ...readsSecrets, owned: true },
      verbs: UPDATES,
      expect: ALLOWED,
    },
    {
      name: 'TestIsOnlyMutatingGCFields/ownerRef and finalizer: not checked',
      upstream: GC_FIELDS,
      kind: 'Role',
      old: readsSecrets,
      object: { ...readsSecrets, owned: true, finalizers: ['example.com/hold'] },
      verbs: UPDATES,
      expect: ALLOWED,
    },
    {
      name: 'TestIsOnlyMutatingGCFields/only ownerRef: not checked',
      upstream: GC_FIELDS,
      kind: 'ClusterRole',
      old: readsSecrets,
      object: { ...readsSecrets, owned: true },
      verbs: UPDATES,
      expect: ALLOWED,
    },
    {
      name: 'TestIsOnlyMutatingGCFields/only ownerRef: not checked',
      upstream: GC_FIELDS,
      kind: 'RoleBinding',
      roles: [secretReader],
      old: toSecretReader,
      object: { ...toSecretReader, owned: true },
      verbs: UPDATES,
      expect: ALLOWED,
    },
    {
      name: 'TestIsOnlyMutatingGCFields/only ownerRef: not checked',
      upstream: GC_FIELDS,
      kind: 'ClusterRoleBinding',
      roles: [secretReader],
      old: toSecretReader,
      object: { ...toSecretReader, owned: true },
      verbs: UPDATES,
      expect: ALLOWED,
    },
    {
      name: 'TestIsOnlyMutatingGCFields/and annotations: checked',
      upstream: GC_FIELDS,
      kind: 'ClusterRoleBinding',
      roles: [secretReader],
      old: toSecretReader,
      object: { ...toSecretReader, owned: true, annotations: { note: 'x' } },
      verbs: UPDATES,
      expect: forbidden(...READ_SECRETS_UNCOVERED),
    },
    {
      name: 'TestIsOnlyMutatingGCFields/same: an update that changes nothing is not checked',
      upstream: GC_FIELDS,
      kind: 'RoleBinding',
      roles: [secretReader],
      old: toSecretReader,
      object: toSecretReader,
      verbs: UPDATES,
      expect: ALLOWED,
    },
  ];
}

/** Every case of the suite. */
export const ESCALATION_CASES: readonly EscalationCase[] = [
  ...roleCases(),
  ...coversCases(),
  ...bindingCases(),
  ...aggregationCases(),
  ...metadataCases(),
];
