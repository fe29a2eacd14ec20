/**
 * The RBAC authorizer (upstream plugin/pkg/auth/authorizer/rbac): answers from an in-memory
 * copy of every Role, ClusterRole, RoleBinding and ClusterRoleBinding, kept by list and watch
 * (see mirror.ts), never by a storage read per request. A request is allowed when a
 * ClusterRoleBinding, or a RoleBinding in the request's namespace, names the user (or one of
 * its groups, or its service account) and refers to a role with a rule that allows it;
 * otherwise RBAC has no opinion (the request is then denied unless another mode allows it).
 * A binding to a role that does not exist grants nothing, and says so in the reason.
 */
import type { Logger } from 'pino';
import type { ApiObject } from '../../api/object.js';
import type { WriterInfo } from '../../registry/access.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type {
  ClusterRole,
  ClusterRoleBinding,
  PolicyRule,
  Role,
  RoleBinding,
  RoleRef,
  Subject,
} from '../../resources/rbac/rbac.schema.js';
import type { WatchEvent } from '../../storage/types.js';
import type { Attributes, Authorization, Authorizer } from '../types.js';
import { mirror } from '../../registry/mirror.js';
import { appliesTo, ruleAllows } from './rules.js';

/** The stores of the four RBAC kinds (one storage each, whichever group serves it). */
export interface RbacStores {
  readonly roles: GenericStore<Role>;
  readonly clusterRoles: GenericStore<ClusterRole>;
  readonly roleBindings: GenericStore<RoleBinding>;
  readonly clusterRoleBindings: GenericStore<ClusterRoleBinding>;
}

/** What the authorizer keeps of a RoleBinding or ClusterRoleBinding. */
interface Binding {
  readonly subjects: readonly Subject[];
  readonly roleRef: RoleRef;
}

type Table<T> = Map<string, T>;

const keyOf = (obj: ApiObject): string => `${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;

export class RbacAuthorizer implements Authorizer {
  private readonly roles: Table<readonly PolicyRule[]> = new Map();
  private readonly clusterRoles: Table<readonly PolicyRule[]> = new Map();
  /** RoleBindings by namespace, then by name. */
  private readonly roleBindings: Table<Table<Binding>> = new Map();
  private readonly clusterRoleBindings: Table<Binding> = new Map();
  private readonly abort = new AbortController();

  /** Start mirroring; resolves once every kind has been listed once. */
  start(stores: RbacStores, logger: Logger): Promise<void> {
    const rules = (obj: Role | ClusterRole): readonly PolicyRule[] => obj.rules ?? [];
    const binding = (obj: RoleBinding | ClusterRoleBinding): Binding => ({
      subjects: obj.subjects ?? [],
      roleRef: obj.roleRef ?? { kind: '', name: '' },
    });
    const flat = <O extends ApiObject, V>(table: Table<V>, value: (obj: O) => V, key: (obj: O) => string) => ({
      onReset(objects: readonly O[]) {
        table.clear();
        for (const o of objects) table.set(key(o), value(o));
      },
      onEvent(ev: WatchEvent<O>) {
        if (ev.type === 'DELETED') table.delete(key(ev.object));
        else if (ev.type !== 'BOOKMARK' && ev.type !== 'ERROR') table.set(key(ev.object), value(ev.object));
      },
    });
    const nested = {
      onReset: (objects: readonly RoleBinding[]) => {
        this.roleBindings.clear();
        for (const o of objects) this.setRoleBinding(o, binding(o));
      },
      onEvent: (ev: WatchEvent<RoleBinding>) => {
        const ns = ev.object.metadata.namespace ?? '';
        if (ev.type === 'DELETED') this.roleBindings.get(ns)?.delete(ev.object.metadata.name!);
        else if (ev.type !== 'BOOKMARK' && ev.type !== 'ERROR') this.setRoleBinding(ev.object, binding(ev.object));
      },
    };
    const signal = this.abort.signal;
    return Promise.all([
      mirror(stores.roles, flat(this.roles, rules, keyOf), signal, logger),
      mirror(
        stores.clusterRoles,
        flat(this.clusterRoles, rules, (o) => o.metadata.name!),
        signal,
        logger,
      ),
      mirror(
        stores.clusterRoleBindings,
        flat(this.clusterRoleBindings, binding, (o) => o.metadata.name!),
        signal,
        logger,
      ),
      mirror(stores.roleBindings, nested, signal, logger),
    ]).then(() => undefined);
  }

  stop(): void {
    this.abort.abort();
  }

  authorize(attrs: Attributes): Authorization {
    const missing: string[] = [];
    const allows = (b: Binding, namespace: string): boolean => {
      if (!b.subjects.some((s) => appliesTo(attrs.user, s, namespace))) return false;
      const rules = this.roleRules(b, namespace);
      if (!rules) {
        missing.push(`${(b.roleRef.kind ?? '').toLowerCase()}.rbac.authorization.k8s.io "${b.roleRef.name}" not found`);
        return false;
      }
      return rules.some((r) => ruleAllows(attrs, r));
    };
    for (const b of this.clusterRoleBindings.values()) if (allows(b, '')) return { decision: 'allow', reason: '' };
    if (attrs.namespace)
      for (const b of this.roleBindings.get(attrs.namespace)?.values() ?? [])
        if (allows(b, attrs.namespace)) return { decision: 'allow', reason: '' };
    return { decision: 'no-opinion', reason: missing.length ? `RBAC: [${missing.join(', ')}]` : '' };
  }

  /**
   * Every rule that applies to `user` in `namespace` ('' = cluster-wide only), for rules
   * reviews and escalation checks (upstream RulesFor).
   */
  rulesFor(user: WriterInfo, namespace: string): PolicyRule[] {
    const out: PolicyRule[] = [];
    const collect = (b: Binding, ns: string) => {
      if (b.subjects.some((s) => appliesTo(user, s, ns))) out.push(...(this.roleRules(b, ns) ?? []));
    };
    for (const b of this.clusterRoleBindings.values()) collect(b, '');
    if (namespace) for (const b of this.roleBindings.get(namespace)?.values() ?? []) collect(b, namespace);
    return out;
  }

  /** The rules of the role `ref` names, seen from a binding in `namespace`; undefined when it does not exist. */
  roleRefRules(ref: RoleRef, namespace: string): readonly PolicyRule[] | undefined {
    if (ref.kind === 'ClusterRole') return this.clusterRoles.get(ref.name ?? '');
    if (ref.kind === 'Role' && namespace) return this.roles.get(`${namespace}/${ref.name}`);
    return undefined;
  }

  private roleRules(b: Binding, namespace: string): readonly PolicyRule[] | undefined {
    return this.roleRefRules(b.roleRef, namespace);
  }

  private setRoleBinding(obj: ApiObject, b: Binding): void {
    const ns = obj.metadata.namespace ?? '';
    let table = this.roleBindings.get(ns);
    if (!table) this.roleBindings.set(ns, (table = new Map()));
    table.set(obj.metadata.name!, b);
  }
}
