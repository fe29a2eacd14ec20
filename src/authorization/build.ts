/**
 * The authorizer of `--authorization-mode` (upstream pkg/kubeapiserver/authorizer/config.go):
 * each mode in order, the first allow or deny deciding. RBAC first writes the bootstrap policy
 * (see rbac/reconcile.ts) and lists every RBAC object, so it answers from the start; its
 * escalation checks go on the RBAC stores (rbac/escalation.ts).
 */
import type { Logger } from 'pino';
import type { AuthorizationMode } from '../config/types.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { RbacAuthorizer } from './rbac/rbac-authorizer.js';
import { reconcileBootstrapPolicy } from './rbac/reconcile.js';
import { rbacStores, rbacStoresServing } from './rbac/stores.js';
import { bindingEscalationCheck, roleEscalationCheck } from './rbac/escalation.js';
import { ALWAYS_ALLOW, ALWAYS_DENY, unionAuthorizer, type Authorizer } from './types.js';

export interface BuiltAuthorizer {
  readonly authorizer: Authorizer;
  /** The RBAC authorizer when RBAC is a mode (for rules reviews and escalation checks). */
  readonly rbac?: RbacAuthorizer;
  /** Stop the watches that feed it. */
  stop(): void;
}

/** Build the authorizer of `modes`. Throws when RBAC is asked for but its kinds are not served, or on storage failures. */
export async function buildAuthorizer(
  modes: readonly AuthorizationMode[],
  registry: ResourceRegistry,
  logger: Logger,
): Promise<BuiltAuthorizer> {
  let rbac: RbacAuthorizer | undefined;
  if (modes.includes('RBAC')) {
    const stores = rbacStores(registry);
    if (!stores) throw new Error('--authorization-mode=RBAC needs the RBAC kinds in the resource table');
    await reconcileBootstrapPolicy(stores, logger);
    rbac = new RbacAuthorizer();
    await rbac.start(stores, logger);
  }
  const authorizers = modes.map((m) => (m === 'RBAC' ? rbac! : m === 'AlwaysAllow' ? ALWAYS_ALLOW : ALWAYS_DENY));
  const authorizer = unionAuthorizer(authorizers);
  if (rbac) {
    // Escalation checks need RBAC's view of what a writer holds.
    // One check per store, asking `escalate`/`bind` in the group the request came in.
    for (const plural of ['roles', 'clusterroles'] as const) {
      for (const s of rbacStoresServing(registry, plural))
        s.addAdmission(roleEscalationCheck(rbac, authorizer, { group: s.def.group, plural }));
    }
    for (const plural of ['rolebindings', 'clusterrolebindings'] as const) {
      for (const s of rbacStoresServing(registry, plural))
        s.addAdmission(bindingEscalationCheck(rbac, authorizer, { group: s.def.group, plural }));
    }
  }
  return { authorizer, rbac, stop: () => rbac?.stop() };
}
