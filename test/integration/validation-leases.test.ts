/** One case per rule of docs/validation/leases.md (Lease, coordination.k8s.io/v1). */
import { useTestServer } from '../helpers/in-process.js';
import { forbidden, invalidValue, unsupported, validationSuite, type Call } from '../helpers/validation-cases.js';

const srv = useTestServer();
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
const lease = (name: string, spec: object): Call => ['POST', LEASES, { metadata: { name }, spec }];
const qualified =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

validationSuite(
  'Lease validation (one case per rule)',
  () => srv,
  [
    {
      rule: '1 leaseDurationSeconds positive',
      call: lease('vl-1', { leaseDurationSeconds: 0 }),
      cause: invalidValue('spec.leaseDurationSeconds', '0', 'must be greater than 0'),
    },
    {
      rule: '2 leaseTransitions non-negative',
      call: lease('vl-2', { leaseTransitions: -1 }),
      cause: invalidValue('spec.leaseTransitions', '-1', 'must be greater than or equal to 0'),
    },
    {
      rule: '3 strategy a Kubernetes-defined name',
      call: lease('vl-3', { strategy: 'Newest' }),
      cause: unsupported('spec.strategy.strategy', 'Newest', ['OldestEmulationVersion']),
    },
    {
      rule: '4 strategy with a prefix a qualified name',
      call: lease('vl-4', { strategy: 'example.com/-bad' }),
      cause: invalidValue('spec.strategy.strategy', '"example.com/-bad"', qualified),
    },
    {
      rule: '5 preferredHolder only with strategy',
      call: lease('vl-5', { preferredHolder: 'b' }),
      cause: forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'),
    },
    {
      rule: '6 the same rules on update',
      setup: [lease('vl-6', { holderIdentity: 'a' })],
      call: ['PUT', `${LEASES}/vl-6`, { metadata: { name: 'vl-6' }, spec: { leaseDurationSeconds: -5 } }],
      cause: invalidValue('spec.leaseDurationSeconds', '-5', 'must be greater than 0'),
    },
  ],
  [
    lease('vl-ok-1', { holderIdentity: 'a', leaseDurationSeconds: 1, leaseTransitions: 0 }),
    lease('vl-ok-2', { strategy: 'OldestEmulationVersion', preferredHolder: 'b' }),
    lease('vl-ok-3', { strategy: 'example.com/my-strategy' }),
  ],
);
