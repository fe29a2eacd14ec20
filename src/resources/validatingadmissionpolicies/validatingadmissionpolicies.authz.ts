/**
 * Who may name a paramKind (k8s.io/kubernetes
 * pkg/registry/admissionregistration/validatingadmissionpolicy/authz.go, 1.33): a create or an
 * update that changes `spec.paramKind` of a well-formed policy needs `get` on every object of
 * that kind (name and namespace `*`, the kind's resource as the served API maps it, `*` when it
 * maps to none, group and version `*` when apiVersion does not parse). Members of
 * system:masters skip the check (upstream EscalationAllowed). A refusal is 422 Invalid with the
 * cause `spec.paramKind: Forbidden: user &{alice  [system:authenticated] map[]} must have "get"
 * permission on all objects of the referenced paramKind (kind=ConfigMap, apiVersion=v1)`, the
 * user printed as Go's `%v` prints upstream's user.DefaultInfo.
 *
 * Upstream runs this inside the strategy's Validate; here it is an admission step
 * ({@link policyParamKindAuthz}) that runs after validation on every write path, installed
 * where the authorizer is known. Dry runs are checked too.
 */
import { invalid } from '../../errors/api-error.js';
import type { AccessRequest, WriterInfo } from '../../registry/access.js';
import type { StoreHooks } from '../../registry/hooks.js';
import { forbidden } from '../../api/validation/field-errors.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { ValidatingAdmissionPolicy } from './validatingadmissionpolicies.schema.js';

/** What the check asks: the server's authorizer (authorization/types.ts Authorizer fits). */
export interface ParamAuthorizer {
  authorize(req: AccessRequest): { readonly decision: string };
}

/** The authorizer once built; undefined before (then nothing is checked, as upstream with a nil authorizer). */
export type ParamAuthorizerSource = () => ParamAuthorizer | undefined;

/** The resource (plural) serving `kind` at group/version, as a REST mapping finds it; undefined when none does. */
export type KindResolver = (group: string, version: string, kind: string) => string | undefined;

/** A resolver over the stores of `registry` (built-in rows and custom resources being served). */
export function registryResolver(registry: Pick<ResourceRegistry, 'all'>): KindResolver {
  return (group, version, kind) =>
    registry.all().find((s) => s.def.group === group && s.def.version === version && s.def.kind === kind)?.def.plural;
}

/** Go's `%v` of a *user.DefaultInfo: `&{name uid [g1 g2] map[k:[v1 v2]]}`. */
export function goUser(user: WriterInfo): string {
  const extra = Object.keys(user.extra ?? {})
    .sort()
    .map((k) => `${k}:[${user.extra![k].join(' ')}]`)
    .join(' ');
  return `&{${user.name} ${user.uid ?? ''} [${user.groups.join(' ')}] map[${extra}]}`;
}

/** upstream rbacregistry.EscalationAllowed: the writer is in system:masters. */
export const isPrivileged = (user: WriterInfo | undefined) => Boolean(user?.groups.includes('system:masters'));

/** schema.ParseGroupVersion: group and version of `apiVersion`, or undefined when it does not parse. */
export function parseGroupVersion(apiVersion: string): { group: string; version: string } | undefined {
  if (!apiVersion || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  return undefined;
}

/** The resource request upstream's authz.go builds for `verb get` on a param kind. */
export function paramAccess(
  user: WriterInfo,
  apiVersion: string,
  kind: string,
  resolve: KindResolver,
  name: string,
  namespace: string,
): AccessRequest {
  let [group, version, resource] = ['*', '*', '*'];
  const gv = parseGroupVersion(apiVersion);
  if (gv) {
    ({ group, version } = gv);
    resource = resolve(gv.group, gv.version, kind) ?? '*';
  }
  return {
    user,
    verb: 'get',
    isResourceRequest: true,
    path: '',
    apiGroup: group,
    apiVersion: version,
    namespace,
    resource,
    subresource: '',
    name,
  };
}

const KIND = 'ValidatingAdmissionPolicy';
const GROUP = 'admissionregistration.k8s.io';

/** The admission step of the policies' store (see the file comment). */
export function policyParamKindAuthz(
  authorizerOf: ParamAuthorizerSource,
  resolve: KindResolver,
): StoreHooks<ValidatingAdmissionPolicy> {
  const check = (policy: ValidatingAdmissionPolicy, old: ValidatingAdmissionPolicy | null, user?: WriterInfo) => {
    const pk = policy.spec?.paramKind;
    const authorizer = authorizerOf();
    if (!pk || !authorizer) return;
    const oldPk = old?.spec?.paramKind;
    if (oldPk && (oldPk.apiVersion ?? '') === (pk.apiVersion ?? '') && (oldPk.kind ?? '') === (pk.kind ?? '')) return;
    if (isPrivileged(user)) return;
    const name = policy.metadata.name ?? '';
    const refuse = (detail: string) => invalid(KIND, name, [forbidden('spec.paramKind', detail)], GROUP);
    if (!user) throw refuse('cannot identify user to authorize read access to paramKind resources');
    const attrs = paramAccess(user, pk.apiVersion ?? '', pk.kind ?? '', resolve, '*', '*');
    if (authorizer.authorize(attrs).decision !== 'allow')
      throw refuse(
        `user ${goUser(user)} must have "get" permission on all objects of the referenced paramKind (kind=${pk.kind ?? ''}, apiVersion=${pk.apiVersion ?? ''})`,
      );
  };
  return {
    beforeCreate: async (policy, attrs) => {
      if (!attrs.subresource) check(policy, null, attrs.user);
    },
    beforeUpdate: async (policy, old, attrs) => {
      if (!attrs.subresource) check(policy, old, attrs.user);
    },
  };
}
