/**
 * ValidatingWebhookConfiguration and MutatingWebhookConfiguration fields (k8s.io/api
 * admissionregistration/v1 and v1beta1 types.go; the same fields at both versions): the
 * webhooks (a list map keyed by `name`, merged by name by strategic merge patch), each with its
 * client config, rules (atomic), policies, selectors and match conditions (merged by name).
 */
import type { z } from 'zod';
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { base64, int, list, mergedList, obj, reqObj, reqStr, str, strList } from '../../api/core/schema-kit.js';
import { labelSelectorSchema } from '../apps-common/label-selector.js';

const serviceReference = obj({
  namespace: reqStr.describe('The namespace of the service. Required.'),
  name: reqStr.describe('The name of the service. Required.'),
  path: str.describe('An optional URL path sent in any request to this service.'),
  port: int.describe(
    'The port on the service that hosts the webhook. Default 443; must be a valid port number (1-65535).',
  ),
});

const clientConfig = reqObj({
  url: str.describe(
    'The location of the webhook in standard URL form (`scheme://host:port/path`); exactly one of url or service must be given. The scheme must be https; no user info, fragment or query.',
  ),
  service: serviceReference.describe(
    'A reference to the service of this webhook; exactly one of url or service must be given.',
  ),
  caBundle: base64
    .nullable()
    .optional()
    .describe(
      "A PEM encoded CA bundle used to validate the webhook's server certificate. If unspecified, the system trust roots on the apiserver are used.",
    ),
});

const rule = reqObj({
  operations: strList.describe(
    'The operations the admission hook cares about: CREATE, UPDATE, DELETE, CONNECT or * for all of them.',
  ),
  apiGroups: strList.describe('The API groups the resources belong to; * is all groups.'),
  apiVersions: strList.describe('The API versions the resources belong to; * is all versions.'),
  resources: strList.describe(
    "The resources this rule applies to: 'pods', 'pods/log' for a subresource, '*' for every resource, '*/*' for every resource and subresource.",
  ),
  scope: str.describe('The scope of this rule: "Cluster", "Namespaced" or "*" (default "*": no restriction).'),
});

const matchCondition = reqObj({
  name: reqStr.describe(
    "An identifier for this match condition: a qualified name, unique among the webhook's conditions. Required.",
  ),
  expression: reqStr.describe(
    'A CEL expression evaluated to decide whether the request is sent to the webhook; must evaluate to bool. Required.',
  ),
});

const common = {
  name: reqStr.describe(
    'The name of the admission webhook, fully qualified (e.g. imagepolicy.kubernetes.io). Required.',
  ),
  clientConfig: clientConfig.describe('How to communicate with the hook. Required.'),
  rules: list(rule).describe('The operations and resources the webhook cares about.'),
  failurePolicy: str.describe('How unrecognized errors from the admission endpoint are handled: Ignore or Fail.'),
  matchPolicy: str.describe('How the rules match incoming requests: Exact or Equivalent.'),
  namespaceSelector: labelSelectorSchema.describe(
    'Decides whether to run the webhook on an object based on whether its namespace matches the selector.',
  ),
  objectSelector: labelSelectorSchema.describe(
    'Decides whether to run the webhook based on whether the object has matching labels.',
  ),
  sideEffects: str.describe(
    'Whether this webhook has side effects: None, NoneOnDryRun (v1), or also Unknown and Some (v1beta1).',
  ),
  timeoutSeconds: int.describe('The timeout for this webhook, between 1 and 30 seconds.'),
  admissionReviewVersions: strList.describe(
    'An ordered list of preferred AdmissionReview versions the webhook expects.',
  ),
  matchConditions: mergedList(matchCondition, { key: 'name' }).describe(
    'Conditions that must all be met for a request to be sent to this webhook (at most 64).',
  ),
};

const validatingWebhook = reqObj(common);
const mutatingWebhook = reqObj({
  ...common,
  reinvocationPolicy: str.describe(
    'Whether this webhook is called again as part of a single admission evaluation: Never or IfNeeded.',
  ),
});

export const validatingWebhookConfigurationSchema = kindSchema({
  webhooks: mergedList(validatingWebhook, { key: 'name' }).describe(
    'The webhooks and the resources and operations they affect.',
  ),
});
export const mutatingWebhookConfigurationSchema = kindSchema({
  webhooks: mergedList(mutatingWebhook, { key: 'name' }).describe(
    'The webhooks and the resources and operations they affect.',
  ),
});

export type ValidatingWebhookConfiguration = KindObject<typeof validatingWebhookConfigurationSchema>;
export type MutatingWebhookConfiguration = KindObject<typeof mutatingWebhookConfigurationSchema>;
/** A webhook of either kind (the mutating one has reinvocationPolicy). */
export type Webhook = z.infer<typeof mutatingWebhook>;
/** A configuration of either kind. */
export type WebhookConfiguration = KindObject<typeof mutatingWebhookConfigurationSchema>;
export type WebhookRule = z.infer<typeof rule>;
