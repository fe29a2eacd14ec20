/**
 * The bootstrap FlowSchemas of upstream 1.33 (k8s.io/apiserver pkg/apis/flowcontrol/bootstrap
 * default.go): the mandatory `exempt` (precedence 1: system:masters to the exempt level) and
 * `catch-all` (precedence 10000: everyone to the catch-all level), and the 11 suggested
 * schemas, each annotated `apf.kubernetes.io/autoupdate-spec: "true"`. Their specs are already
 * in defaulted form (defaulting changes none of them, as upstream's tests check). The ensurer
 * (controllers/flowcontrol-bootstrap.ts) writes them; the dispatcher uses them until it has
 * read the stored objects. Objects are frozen: copy before changing.
 */
import { deepFreeze, type BootstrapObject, type NoNulls } from '../flowcontrol-common/bootstrap-object.js';
import { AUTO_UPDATE_ANNOTATION, CATCH_ALL, EXEMPT, FLOWCONTROL_V1 } from '../flowcontrol-common/names.js';
import { specsEqual } from '../flowcontrol-common/spec-equality.js';
import { defaultFlowSchema } from './flowschemas.defaults.js';
import type * as schema from './flowschemas.schema.js';
import type { FlowSchema, FlowSchemaSpec } from './flowschemas.schema.js';

/** A bootstrap FlowSchema: named, with a spec, without nulls (it fits the dispatcher's views too). */
export type BootstrapFlowSchema = BootstrapObject<FlowSchema, FlowSchemaSpec>;

type Subject = NoNulls<schema.Subject>;
type ResourcePolicyRule = NoNulls<schema.ResourcePolicyRule>;
type NonResourcePolicyRule = NoNulls<schema.NonResourcePolicyRule>;
type PolicyRulesWithSubjects = NoNulls<schema.PolicyRulesWithSubjects>;

const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'User', user: { name } }));
/** Service accounts of kube-system with the given names (`*`: all of them). */
const kubeSystemServiceAccounts = (...names: string[]): Subject[] =>
  names.map((name) => ({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name } }));

/** A resource rule over every namespace (`*`); `clusterScope` also matches requests naming none. */
function resourceRule(
  verbs: string[],
  apiGroups: string[],
  resources: string[],
  clusterScope: boolean,
): ResourcePolicyRule {
  return { verbs, apiGroups, resources, namespaces: ['*'], ...(clusterScope ? { clusterScope } : {}) };
}
const nonResourceRule = (verbs: string[], nonResourceURLs: string[]): NonResourcePolicyRule => ({
  verbs,
  nonResourceURLs,
});

/** Every request: every verb of every resource anywhere, and every non-resource URL. */
const everything = (subjects: Subject[]): PolicyRulesWithSubjects => ({
  subjects,
  resourceRules: [resourceRule(['*'], ['*'], ['*'], true)],
  nonResourceRules: [nonResourceRule(['*'], ['*'])],
});

/** One bootstrap FlowSchema; `distinguisher` '' for none. */
function flowSchema(
  name: string,
  priorityLevel: string,
  matchingPrecedence: number,
  distinguisher: '' | 'ByUser' | 'ByNamespace',
  rules: PolicyRulesWithSubjects[],
): BootstrapFlowSchema {
  return deepFreeze({
    apiVersion: FLOWCONTROL_V1,
    kind: 'FlowSchema',
    metadata: { name, annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' } },
    spec: {
      priorityLevelConfiguration: { name: priorityLevel },
      matchingPrecedence,
      ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules,
    },
  });
}

const LEASES = (verbs: string[]) => resourceRule(verbs, ['coordination.k8s.io'], ['leases'], false);
const GET_CREATE_UPDATE = ['get', 'create', 'update'];

/** `exempt` and `catch-all`, which the server keeps at these specs. */
export const MANDATORY_FLOW_SCHEMAS: readonly BootstrapFlowSchema[] = [
  flowSchema(EXEMPT, EXEMPT, 1, '', [everything(groups('system:masters'))]),
  flowSchema(CATCH_ALL, CATCH_ALL, 10000, 'ByUser', [
    everything(groups('system:unauthenticated', 'system:authenticated')),
  ]),
];

/** The suggested FlowSchemas, in upstream's order (operators may change or opt out of them). */
export const SUGGESTED_FLOW_SCHEMAS: readonly BootstrapFlowSchema[] = [
  flowSchema('system-nodes', 'system', 500, 'ByUser', [everything(groups('system:nodes'))]),
  flowSchema('system-node-high', 'node-high', 400, 'ByUser', [
    {
      subjects: groups('system:nodes'),
      resourceRules: [resourceRule(['*'], [''], ['nodes', 'nodes/status'], true), LEASES(['*'])],
    },
  ]),
  flowSchema('probes', EXEMPT, 2, '', [
    {
      subjects: groups('system:unauthenticated', 'system:authenticated'),
      nonResourceRules: [nonResourceRule(['get'], ['/healthz', '/readyz', '/livez'])],
    },
  ]),
  flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', [
    {
      subjects: [
        ...users('system:kube-controller-manager', 'system:kube-scheduler'),
        ...kubeSystemServiceAccounts('*'),
      ],
      resourceRules: [LEASES(GET_CREATE_UPDATE)],
    },
  ]),
  flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', [
    {
      subjects: kubeSystemServiceAccounts('*'),
      resourceRules: [
        resourceRule(GET_CREATE_UPDATE, [''], ['endpoints', 'configmaps'], false),
        LEASES(GET_CREATE_UPDATE),
      ],
    },
  ]),
  flowSchema('endpoint-controller', 'workload-high', 150, 'ByUser', [
    {
      subjects: [
        ...users('system:kube-controller-manager'),
        ...kubeSystemServiceAccounts('endpoint-controller', 'endpointslicemirroring-controller'),
      ],
      resourceRules: [resourceRule(GET_CREATE_UPDATE, [''], ['endpoints'], false)],
    },
  ]),
  flowSchema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', [
    everything(users('system:kube-controller-manager')),
  ]),
  flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', [everything(users('system:kube-scheduler'))]),
  flowSchema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', [
    everything(kubeSystemServiceAccounts('*')),
  ]),
  flowSchema('service-accounts', 'workload-low', 9000, 'ByUser', [everything(groups('system:serviceaccounts'))]),
  flowSchema('global-default', 'global-default', 9900, 'ByUser', [
    everything(groups('system:unauthenticated', 'system:authenticated')),
  ]),
];

/** The mandatory schema named `name`, if it is one. */
export function mandatoryFlowSchema(name: string): BootstrapFlowSchema | undefined {
  return MANDATORY_FLOW_SCHEMAS.find((fs) => fs.metadata.name === name);
}

/**
 * The ensurer's fsSpecEqualish: whether `actual`'s spec is `expected`'s once `expected` is
 * defaulted, as Go compares specs.
 */
export function flowSchemaSpecEqualish(expected: FlowSchema, actual: FlowSchema): boolean {
  const defaulted = structuredClone(expected);
  defaultFlowSchema(defaulted);
  return specsEqual(defaulted.spec, actual.spec);
}
