/**
 * Requests and printed values shared by the Deployment and ReplicaSet validation suites
 * (test/integration/validation-deployments.test.ts, validation-replicasets.test.ts).
 */
import type { Call, Cause } from './validation-cases.js';

export const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';
export const DEPLOY_B1 = '/apis/apps/v1beta1/namespaces/default/deployments';
export const DEPLOY_EXT = '/apis/extensions/v1beta1/namespaces/default/deployments';
export const RS = '/apis/apps/v1/namespaces/default/replicasets';
export const RS_EXT = '/apis/extensions/v1beta1/namespaces/default/replicasets';

export const qualified =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
export const labelValue =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
export const percent =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";
export const NEG = 'must be greater than or equal to 0';
export const OVER = 'cannot be greater than status.replicas';
export const MERGE = { 'content-type': 'application/merge-patch+json' };
export const STRATEGIC = { 'content-type': 'application/strategic-merge-patch+json' };

/** A NotSupported cause whose value upstream prints with `%#v` (`printed`). */
export const notSupported = (field: string, printed: string, values: string[]): Cause => ({
  field,
  reason: 'FieldValueNotSupported',
  message: `Unsupported value: ${printed}: supported values: ${values.map((v) => JSON.stringify(v)).join(', ')}`,
});

/** A valid workload spec selecting `app=<name>`, with `extra` spec fields and `pod` PodSpec fields. */
export const spec = (name: string, extra: object = {}, pod: object = {}) => ({
  replicas: 1,
  selector: { matchLabels: { app: name } },
  template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...pod } },
  ...extra,
});
export const create = (path: string, name: string, s: object): Call => ['POST', path, { metadata: { name }, spec: s }];
export const deploy = (name: string, extra: object = {}, pod: object = {}) =>
  create(DEPLOY, name, spec(name, extra, pod));
export const rs = (name: string, extra: object = {}, pod: object = {}) => create(RS, name, spec(name, extra, pod));
/** A merge patch of `<path>/<name>/status` setting `s`. */
export const status = (path: string, name: string, s: object): Call => [
  'PATCH',
  `${path}/${name}/status`,
  { status: s },
  MERGE,
];
/** Go's `%#v` of a metav1.LabelSelector with these (printed) parts. */
export const selectorOf = (labels: string, exprs = '[]v1.LabelSelectorRequirement(nil)') =>
  `v1.LabelSelector{MatchLabels:${labels}, MatchExpressions:${exprs}}`;
/** A writable GCE disk. */
export const gce = { volumes: [{ name: 'd', gcePersistentDisk: { pdName: 'disk' } }] };
