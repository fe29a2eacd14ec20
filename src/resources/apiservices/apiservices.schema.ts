/**
 * APIService fields (k8s.io/kube-aggregator apiregistration v1 and v1beta1 types.go; the same
 * fields at both versions). Status conditions are merged by `type`.
 */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { base64, bool, int, mergedList, obj, reqInt, reqObj, reqStr, str, time } from '../../api/core/schema-kit.js';

const condition = reqObj({
  type: reqStr.describe('Type is the type of the condition (Available).'),
  status: reqStr.describe('Status is the status of the condition. Can be True, False, Unknown.'),
  lastTransitionTime: time.describe('Last time the condition transitioned from one status to another.'),
  reason: str.describe("Unique, one-word, CamelCase reason for the condition's last transition."),
  message: str.describe('Human-readable message indicating details about last transition.'),
});

export const apiServiceSchema = kindSchema({
  spec: obj({
    service: obj({
      namespace: str.describe('Namespace is the namespace of the service'),
      name: str.describe('Name is the name of the service'),
      port: int.describe(
        'The port on the service hosting the API (default 443; must be a valid port number, 1-65535).',
      ),
    }).describe(
      'Service is a reference to the service for this API server. It must communicate on port 443. If the Service is nil, the API group version is handled locally on this server.',
    ),
    group: str.describe('Group is the API group name this server hosts'),
    version: str.describe('Version is the API version this server hosts. For example, "v1"'),
    insecureSkipTLSVerify: bool.describe(
      'InsecureSkipTLSVerify disables TLS certificate verification when communicating with this server. This is strongly discouraged. You should use the CABundle instead.',
    ),
    caBundle: base64
      .nullable()
      .optional()
      .describe(
        "CABundle is a PEM encoded CA bundle which will be used to validate an API server's serving certificate. If unspecified, system trust roots on the apiserver are used.",
      ),
    groupPriorityMinimum: reqInt.describe(
      'The priority this group should have at least (1 to 20000): higher priority is preferred by clients over lower priority ones.',
    ),
    versionPriority: reqInt.describe(
      'The ordering of this API version inside of its group (1 to 1000): higher first, then by kube-like version and name.',
    ),
  }).describe('Spec contains information for locating and communicating with a server'),
  status: obj({
    conditions: mergedList(condition, { key: 'type' }).describe('Current service state of apiService.'),
  }).describe('Status contains derived information about an API server'),
});

/** An APIService as its schema describes it. */
export type APIService = KindObject<typeof apiServiceSchema>;
