/**
 * What a verb handler needs besides the context: the store addressed, the object's namespace
 * and name, the subresource, and what a kind's own create may use.
 */
import type { AccessServices } from '../../registry/access.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { SubresourceDefinition } from '../../registry/types.js';

/** What a verb handler needs besides the context. */
export interface VerbTarget {
  readonly store: GenericStore;
  readonly namespace: string;
  readonly name: string;
  readonly subresource?: SubresourceDefinition;
  /** Every store, for the creates a kind handles itself (a binding writes its pod). */
  readonly registry: ResourceRegistry;
  /** The authorizer and authenticator, for the creates of the review kinds. */
  readonly access?: AccessServices;
}
