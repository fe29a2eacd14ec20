/**
 * The contracts of the admission webhook plugins (upstream k8s.io/apiserver
 * pkg/admission/plugin/webhook accessors.go and generic/interfaces.go): a webhook as its
 * configuration lists it, the request as the dispatchers see it, and the invocation a
 * matching webhook gets (the resource and kind it is called with, which matchPolicy
 * Equivalent may make another version's).
 */
import type { ApiObject } from '../../api/object.js';
import type { Webhook } from '../../resources/webhook-common/webhook.schema.js';
import type {
  AdmissionAttributes,
  AdmissionOperation,
  GroupVersionKind,
  GroupVersionResource,
} from '../../registry/hooks.js';
import type { ResourceDefinition } from '../../registry/types.js';

/** One webhook of a configuration (upstream WebhookAccessor). */
export interface RegisteredWebhook {
  /** `<configuration>/<webhook>/<index>` (upstream's webhook uid), unique among the configurations. */
  readonly uid: string;
  readonly configurationName: string;
  readonly webhook: Webhook;
  readonly mutating: boolean;
}

/** Where the webhooks come from (upstream generic.Source). */
export interface WebhookSource {
  /** Mutating webhooks, by configuration name, then in the configuration's order. */
  mutating(): readonly RegisteredWebhook[];
  /** Validating webhooks, ordered as the mutating ones. */
  validating(): readonly RegisteredWebhook[];
}

/**
 * One admission request as the dispatchers see it (upstream admission.Attributes): the
 * operation on a row of the table, the new object (none on DELETE) and the old one (none on
 * CREATE), both as stored.
 */
export interface AdmissionRequest {
  readonly operation: AdmissionOperation;
  /** The row the request addressed. */
  readonly def: ResourceDefinition;
  readonly resource: GroupVersionResource;
  readonly kind: GroupVersionKind;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  /** The object being written; changed in place by mutating webhooks' patches. */
  readonly object: ApiObject | null;
  readonly oldObject: ApiObject | null;
  readonly attrs: AdmissionAttributes;
}

/** A webhook to call for a request (upstream generic.WebhookInvocation). */
export interface WebhookInvocation {
  readonly hook: RegisteredWebhook;
  /** The row whose version the webhook is called with (the request's, or an equivalent one). */
  readonly def: ResourceDefinition;
  readonly resource: GroupVersionResource;
  readonly kind: GroupVersionKind;
  readonly subresource: string;
}
