/** One case per rule of docs/validation/certificatesigningrequests.md (certificates.k8s.io v1 and v1beta1). */
import { useTestServer } from '../helpers/in-process.js';
import {
  duplicate,
  forbidden,
  invalid,
  invalidValue,
  required,
  unsupported,
  validationSuite,
  type Call,
} from '../helpers/validation-cases.js';
import { ISSUED_CERT, PLAIN_CSR, b64 } from '../fixtures/kinds/csr-pems.js';
import { VALID_USAGES, goBytes } from '../../src/resources/certificatesigningrequests/csr.validation.js';

const srv = useTestServer();
const V1 = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const REQUEST = b64(PLAIN_CSR);
const spec = (over: object = {}) => ({
  request: REQUEST,
  signerName: 'example.com/s',
  usages: ['client auth'],
  ...over,
});
const csr = (name: string, over: object = {}): Call => ['POST', V1, { metadata: { name }, spec: spec(over) }];
const approval = (name: string, conditions: object[]): Call => [
  'PUT',
  `${V1}/${name}/approval`,
  { metadata: { name }, spec: spec(), status: { conditions } },
];
const approved = { type: 'Approved', status: 'True', reason: 'R' };
const badSignature = PLAIN_CSR.replace('QnGQ', 'QnGR');
const dnsLabel =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

validationSuite(
  'CertificateSigningRequest validation (one case per rule)',
  () => srv,
  [
    {
      rule: '1 request is a PEM CERTIFICATE REQUEST',
      call: csr('vc-1', { request: b64('hello') }),
      cause: invalid(
        'spec.request',
        `Invalid value: ${goBytes(Buffer.from('hello'))}: PEM block type must be CERTIFICATE REQUEST`,
      ),
    },
    {
      rule: '2 request signature verifies',
      call: csr('vc-2', { request: b64(badSignature) }),
      cause: invalid(
        'spec.request',
        `Invalid value: ${goBytes(Buffer.from(badSignature))}: x509: ECDSA verification failure`,
      ),
    },
    { rule: '3 usages required', call: csr('vc-3', { usages: [] }), cause: required('spec.usages') },
    {
      rule: '4 usages known (v1)',
      call: csr('vc-4', { usages: ['client auth', 'teleport'] }),
      cause: unsupported('spec.usages[1]', 'teleport', VALID_USAGES),
    },
    {
      rule: '5 usages unique (v1)',
      call: csr('vc-5', { usages: ['client auth', 'client auth'] }),
      cause: duplicate('spec.usages[1]', 'Duplicate value: "client auth"'),
    },
    { rule: '6 signerName required (v1)', call: csr('vc-6', { signerName: '' }), cause: required('spec.signerName') },
    {
      rule: '7 signerName is domain/path',
      call: csr('vc-7', { signerName: 'example.com' }),
      cause: invalidValue(
        'spec.signerName',
        '"example.com"',
        "must be a fully qualified domain and path of the form 'example.com/signer-name'",
      ),
    },
    {
      rule: '8 signerName domain has two segments of DNS labels',
      call: csr('vc-8', { signerName: 'Example/s' }),
      cause: invalidValue('spec.signerName', '"Example"', `validating label "Example": ${dnsLabel}`),
    },
    {
      rule: '9 legacy signerName refused at v1',
      call: csr('vc-9', { signerName: 'kubernetes.io/legacy-unknown' }),
      cause: invalidValue(
        'spec.signerName',
        '"kubernetes.io/legacy-unknown"',
        'the legacy signerName is not allowed via this API version',
      ),
    },
    {
      rule: '10 expirationSeconds at least 600',
      call: csr('vc-10', { expirationSeconds: 599 }),
      cause: invalidValue(
        'spec.expirationSeconds',
        '599',
        'may not specify a duration less than 600 seconds (10 minutes)',
      ),
    },
    {
      rule: '11 condition type required (v1)',
      setup: [csr('vc-11')],
      call: approval('vc-11', [{ type: '', status: 'True' }]),
      cause: required('status.conditions[0].type'),
    },
    {
      rule: '12 condition status required',
      setup: [csr('vc-12')],
      call: approval('vc-12', [{ type: 'Approved', status: '' }]),
      cause: required('status.conditions[0].status'),
    },
    {
      rule: '13 Approved, Denied and Failed only True',
      setup: [csr('vc-13')],
      call: approval('vc-13', [{ type: 'Approved', status: 'False' }]),
      cause: unsupported('status.conditions[0].status', 'False', ['True']),
    },
    {
      rule: '14 other conditions True, False or Unknown',
      setup: [csr('vc-14')],
      call: approval('vc-14', [{ type: 'Custom', status: 'Maybe' }]),
      cause: unsupported('status.conditions[0].status', 'Maybe', ['False', 'True', 'Unknown']),
    },
    {
      rule: '15 Approved and Denied exclusive',
      setup: [csr('vc-15')],
      call: approval('vc-15', [approved, { type: 'Denied', status: 'True' }]),
      cause: invalidValue(
        'status.conditions[1].type',
        '"Denied"',
        'Approved and Denied conditions are mutually exclusive',
      ),
    },
    {
      rule: '16 condition types unique (v1)',
      setup: [csr('vc-16')],
      call: approval('vc-16', [
        { type: 'Custom', status: 'True' },
        { type: 'Custom', status: 'False' },
      ]),
      cause: duplicate('status.conditions[1].type', 'Duplicate value: "Custom"'),
    },
    {
      rule: '17 certificate is CERTIFICATE PEM blocks',
      setup: [csr('vc-17')],
      call: [
        'PUT',
        `${V1}/vc-17/status`,
        { metadata: { name: 'vc-17' }, spec: spec(), status: { certificate: b64(PLAIN_CSR) } },
      ],
      cause: invalidValue(
        'status.certificate',
        '"<certificate data>"',
        'only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"',
      ),
    },
    {
      rule: '18 updates may not remove Approved, Denied or Failed',
      setup: [csr('vc-18'), approval('vc-18', [approved])],
      call: approval('vc-18', []),
      cause: forbidden('status.conditions', 'updates may not remove a condition of type "Approved"'),
    },
    {
      rule: '19 /status may not add Approved or Denied',
      setup: [csr('vc-19')],
      call: [
        'PUT',
        `${V1}/vc-19/status`,
        { metadata: { name: 'vc-19' }, spec: spec(), status: { conditions: [approved] } },
      ],
      cause: forbidden('status.conditions', 'updates may not add a condition of type "Approved"'),
    },
    {
      rule: '20 /status may not replace a certificate (v1)',
      setup: [
        csr('vc-20'),
        [
          'PUT',
          `${V1}/vc-20/status`,
          { metadata: { name: 'vc-20' }, spec: spec(), status: { certificate: b64(ISSUED_CERT) } },
        ],
      ],
      call: [
        'PUT',
        `${V1}/vc-20/status`,
        { metadata: { name: 'vc-20' }, spec: spec(), status: { certificate: b64(`${ISSUED_CERT}${ISSUED_CERT}`) } },
      ],
      cause: forbidden('status.certificate', 'updates may not modify existing certificate content'),
    },
  ],
  [
    csr('vc-ok-1', { expirationSeconds: 600, usages: ['digital signature', 'client auth'] }),
    // v1beta1 tolerates the legacy signer, unknown and repeated usages.
    [
      'POST',
      '/apis/certificates.k8s.io/v1beta1/certificatesigningrequests',
      { metadata: { name: 'vc-ok-2' }, spec: { request: REQUEST, usages: ['teleport', 'teleport'] } },
    ],
  ],
);
