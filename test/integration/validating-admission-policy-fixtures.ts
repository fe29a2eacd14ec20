/**
 * Shared pieces of the ValidatingAdmissionPolicy tests: v1 policy and binding builders (a
 * policy on ConfigMaps CREATE and UPDATE by default), a namespace maker, and a retry helper for
 * the moment a new policy reaches the server's mirror.
 */
import { expect } from 'vitest';
import type { TestServer } from '../helpers/in-process.js';
import { eventually } from './admission-webhooks-fixtures.js';

export const POLICIES = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
export const BINDINGS = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings';

/** A rule on ConfigMaps; `over` replaces its fields. */
export const configMapRule = (over: Record<string, unknown> = {}) => ({
  apiGroups: [''],
  apiVersions: ['v1'],
  operations: ['CREATE', 'UPDATE'],
  resources: ['configmaps'],
  ...over,
});

/** A v1 ValidatingAdmissionPolicy named `name`; `spec` is merged over a ConfigMap match. */
export function policy(name: string, spec: Record<string, unknown>) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: { matchConstraints: { resourceRules: [configMapRule()] }, ...spec },
  };
}

/** A v1 binding `name` of policy `policyName` with validationActions Deny unless `spec` says otherwise. */
export function binding(name: string, policyName: string, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName, validationActions: ['Deny'], ...spec },
  };
}

/** Create `obj` at `path`, expecting 201. */
export async function create(srv: TestServer, path: string, obj: unknown): Promise<void> {
  const res = await srv.api('POST', path, obj);
  expect(res.status, res.text).toBe(201);
}

/** Create a namespace `name` with `labels`. */
export const namespace = (srv: TestServer, name: string, labels: Record<string, string> = {}) =>
  create(srv, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });

/** A ConfigMap `name` with `data` and `labels`. */
export const configMap = (name: string, data: Record<string, string> = {}, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(labels ? { labels } : {}) },
  data,
});

/** The path of ConfigMaps in `ns`. */
export const configMaps = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;

export { eventually };

/** The refusal upstream answers for policy and binding `name`. */
export const denied = (resource: string, obj: string, name: string, message: string) =>
  `${resource} "${obj}" is forbidden: ValidatingAdmissionPolicy '${name}' with binding '${name}' denied request: ${message}`;

/**
 * Create `p` and `b` for ConfigMaps in a new namespace `ns` (policy and binding named `ns`),
 * then wait until creating `probe` (a ConfigMap with generateName `probe-` and data
 * `{probe: 'yes'}` by default) there is refused (the policy is in force); the refusal.
 */
export async function inForce(
  srv: TestServer,
  ns: string,
  p: Record<string, unknown>,
  b: Record<string, unknown> = {},
  probe: unknown = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { generateName: 'probe-' },
    data: { probe: 'yes' },
  },
) {
  await namespace(srv, ns, { vap: ns });
  const scoped = { namespaceSelector: { matchLabels: { vap: ns } } };
  const matchConstraints = {
    resourceRules: [configMapRule()],
    ...scoped,
    ...((p.matchConstraints as Record<string, unknown> | undefined) ?? {}),
  };
  await create(srv, POLICIES, policy(ns, { ...p, matchConstraints }));
  await create(srv, BINDINGS, binding(ns, ns, b));
  const res = await eventually(
    () => srv.api('POST', configMaps(ns), probe),
    (r) => r.status !== 201,
  );
  expect(res.status, res.text).not.toBe(201);
  return res;
}
