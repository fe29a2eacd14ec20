/**
 * The PersistentVolume, PersistentVolumeClaim, Node, Endpoints and ResourceQuota rules upstream
 * added or changed after 1.10, up to 1.33 (docs/validation/core-today.md, rows PV33-*, PVC33-*,
 * N33-*, E33-*, Q33-*): one case per rule, sent over HTTP, and the behaviours that are not a
 * refusal (defaults, fields dropped with their gate off, what an update may now change).
 */
import { describe, expect, it } from 'vitest';
import { validateDns1123Subdomain } from '../../src/api/names.js';
import { useTestServer } from '../helpers/in-process.js';
import {
  forbidden,
  immutable,
  invalidValue,
  merge,
  required,
  unsupported,
  validationSuite,
  type Call,
  type ValidationCase,
} from '../helpers/validation-cases.js';

const srv = useTestServer();
const PVS = '/api/v1/persistentvolumes';
const PVCS = '/api/v1/namespaces/default/persistentvolumeclaims';
const NODES = '/api/v1/nodes';
const EPS = '/api/v1/namespaces/default/endpoints';
const QUOTAS = '/api/v1/namespaces/default/resourcequotas';
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const QUALIFIED_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
/** The repository's DNS-1123 subdomain wording (shared with every kind). */
const SUBDOMAIN_MSG = validateDns1123Subdomain('Bad_Group')[0];

let n = 0;
const name = (p: string) => `${p}-${n++}`;
const affinity = (expr: Record<string, unknown> = { key: 'zone', operator: 'In', values: ['a'] }) => ({
  required: { nodeSelectorTerms: [{ matchExpressions: [expr] }] },
});
const pv = (spec: Record<string, unknown> = {}, nm = name('pv33')) => ({
  metadata: { name: nm },
  spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, hostPath: { path: '/data' }, ...spec },
});
const pvc = (spec: Record<string, unknown> = {}, nm = name('pvc33')) => ({
  metadata: { name: nm },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});
const node = (spec: Record<string, unknown> = {}, nm = name('node33')) => ({ metadata: { name: nm }, spec });
const eps = (subset: Record<string, unknown>, nm = name('ep33')) => ({
  metadata: { name: nm },
  subsets: [{ addresses: [{ ip: '10.1.2.3' }], ...subset }],
});
const quota = (spec: Record<string, unknown>, nm = name('q33')) => ({ metadata: { name: nm }, spec });

const post = (path: string, body: { metadata: { name: string } }): Call => ['POST', path, body];
/** Create `first`, then merge-patch it (at `sub`) with `patch`. */
const patched = (
  rule: string,
  path: string,
  first: { metadata: { name: string } },
  patch: unknown,
  cause: ValidationCase['cause'],
  sub = '',
): ValidationCase => ({
  rule,
  setup: [post(path, first)],
  call: ['PATCH', `${path}/${first.metadata.name}${sub}`, patch, merge],
  cause,
});
const created = (rule: string, call: Call, cause: ValidationCase['cause']): ValidationCase => ({ rule, call, cause });

const boundPvc = pvc();
const pvcCases: ValidationCase[] = [
  created(
    'PVC33-2 ReadWriteOncePod alone',
    post(PVCS, pvc({ accessModes: ['ReadWriteOncePod', 'ReadOnlyMany'] })),
    forbidden('spec.accessModes', 'may not use ReadWriteOncePod with other access modes'),
  ),
  created(
    'PVC33-3 requested storage positive',
    post(PVCS, pvc({ resources: { requests: { storage: '0' } } })),
    invalidValue('spec.resources[storage]', '"0"', 'must be greater than zero'),
  ),
  created(
    'PVC33-5 a data source names its object',
    post(PVCS, pvc({ dataSourceRef: { kind: 'PersistentVolumeClaim', name: '' } })),
    required('spec.dataSourceRef.name'),
  ),
  created(
    'PVC33-6 a data source of the core group is a claim',
    post(PVCS, pvc({ dataSourceRef: { kind: 'Hello', name: 'h' } })),
    invalidValue(
      'spec.dataSourceRef',
      '"Hello"',
      "must be 'PersistentVolumeClaim' when referencing the default apiGroup",
    ),
  ),
  created(
    'PVC33-7 a data source apiGroup is a DNS subdomain',
    post(PVCS, pvc({ dataSourceRef: { apiGroup: 'Bad_Group', kind: 'Hello', name: 'h' } })),
    invalidValue('spec.dataSourceRef.apiGroup', '"Bad_Group"', SUBDOMAIN_MSG),
  ),
  created(
    'PVC33-8 dataSource matches dataSourceRef',
    post(
      PVCS,
      pvc({
        dataSource: { kind: 'PersistentVolumeClaim', name: 'a' },
        dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'b' },
      }),
    ),
    invalidValue(
      'spec',
      'field.Path{name:"dataSource", index:"", parent:(*field.Path)(0xc000000000)}',
      'must match dataSourceRef',
    ),
  ),
  {
    rule: 'PVC33-14 a request may shrink, not to status.capacity',
    setup: [
      post(PVCS, boundPvc),
      [
        'PATCH',
        `${PVCS}/${boundPvc.metadata.name}/status`,
        { status: { phase: 'Bound', capacity: { storage: '1Gi' } } },
        merge,
      ],
    ],
    call: [
      'PATCH',
      `${PVCS}/${boundPvc.metadata.name}`,
      { spec: { resources: { requests: { storage: '512Mi' } } } },
      merge,
    ],
    cause: forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'),
  },
  patched(
    'PVC33-15 volumeMode immutable',
    PVCS,
    pvc(),
    { spec: { volumeMode: 'Block' } },
    immutable('volumeMode', '"Block"'),
  ),
  patched(
    'PVC33-16 allocatedResourceStatuses states',
    PVCS,
    pvc(),
    { status: { allocatedResourceStatuses: { storage: 'Resizing' } } },
    unsupported('status.allocatedResourceStatus', 'storage', [
      'ControllerResizeInProgress',
      'ControllerResizeInfeasible',
      'NodeResizeInProgress',
      'NodeResizeInfeasible',
      'NodeResizePending',
    ]),
    '/status',
  ),
  patched(
    'PVC33-17 allocatedResourceStatuses keys: storage among native names',
    PVCS,
    pvc(),
    { status: { allocatedResourceStatuses: { cpu: 'NodeResizePending' } } },
    unsupported('status.allocatedResourceStatus', 'cpu', ['storage']),
    '/status',
  ),
  patched(
    'PVC33-18 allocatedResources keys are qualified names',
    PVCS,
    pvc(),
    { status: { allocatedResources: { 'bad key!': '1Gi' } } },
    invalidValue('status.allocatedResources', '"bad key!"', QUALIFIED_MSG),
    '/status',
  ),
  patched(
    'PVC33-19 allocatedResources quantities not negative',
    PVCS,
    pvc(),
    { status: { allocatedResources: { storage: '-1' } } },
    invalidValue('status.allocatedResources[storage]', '-1', 'must be a valid resource quantity'),
    '/status',
  ),
];

const pvCases: ValidationCase[] = [
  created(
    'PV33-2 ReadWriteOncePod alone',
    post(PVS, pv({ accessModes: ['ReadWriteOncePod', 'ReadWriteMany'] })),
    forbidden('spec.accessModes', 'may not use ReadWriteOncePod with other access modes'),
  ),
  created(
    'PV33-3 capacity positive',
    post(PVS, pv({ capacity: { storage: '0' } })),
    invalidValue('spec.capacity[storage]', '"0"', 'must be greater than zero'),
  ),
  created(
    'PV33-4 negative capacity printed as its integer value',
    post(PVS, pv({ capacity: { storage: '-1Ki' } })),
    invalidValue('spec.capacity[storage]', '-1024', 'must be a valid resource quantity'),
  ),
  created(
    'PV33-7 node affinity has required constraints',
    post(PVS, pv({ nodeAffinity: {} })),
    required('spec.nodeAffinity.required', 'must specify required node constraints'),
  ),
  created(
    'PV33-8 required node affinity has terms',
    post(PVS, pv({ nodeAffinity: { required: { nodeSelectorTerms: [] } } })),
    required('spec.nodeAffinity.required.nodeSelectorTerms', 'must have at least one node selector term'),
  ),
  created(
    'PV33-9 node selector requirements (Gt takes one value)',
    post(PVS, pv({ nodeAffinity: affinity({ key: 'zone', operator: 'Gt', values: ['1', '2'] }) })),
    required(
      'spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values',
      "must be specified single value when `operator` is 'Lt' or 'Gt'",
    ),
  ),
  created(
    'PV33-10 node selector values are label values',
    post(PVS, pv({ nodeAffinity: affinity({ key: 'zone', operator: 'In', values: ['bad value!'] }) })),
    invalidValue(
      'spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values[0]',
      '"bad value!"',
      LABEL_VALUE_MSG,
    ),
  ),
  created(
    'PV33-11 node field selector keys',
    post(
      PVS,
      pv({
        nodeAffinity: {
          required: { nodeSelectorTerms: [{ matchFields: [{ key: 'spec.nodeName', operator: 'In', values: ['n'] }] }] },
        },
      }),
    ),
    unsupported('spec.nodeAffinity.required.nodeSelectorTerms[0].matchFields[0].key', 'spec.nodeName', [
      'metadata.name',
    ]),
  ),
  created(
    'PV33-12 a local volume has node affinity',
    post(PVS, pv({ hostPath: undefined, local: { path: '/mnt/disk' } })),
    required('spec.nodeAffinity', 'Local volume requires node affinity'),
  ),
  patched(
    'PV33-15 volumeMode immutable',
    PVS,
    pv(),
    { spec: { volumeMode: 'Block' } },
    immutable('volumeMode', '"Block"'),
  ),
  patched(
    'PV33-16 node affinity immutable once set',
    PVS,
    pv({ nodeAffinity: affinity() }),
    { spec: { nodeAffinity: affinity({ key: 'zone', operator: 'In', values: ['b'] }) } },
    immutable('nodeAffinity', '&core.VolumeNodeAffinity{Required:(*core.NodeSelector)(0xc000000000)}'),
  ),
];

const CIDR_MSG = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';
const nodeCases: ValidationCase[] = [
  created(
    'N33-3 podCIDRs are CIDRs',
    post(NODES, node({ podCIDRs: ['10.0.0.0/33'] })),
    invalidValue('spec.podCIDRs[0]', '"10.0.0.0/33"', CIDR_MSG),
  ),
  created(
    'N33-4 at most one podCIDR per family',
    post(NODES, node({ podCIDRs: ['10.0.0.0/24', '10.1.0.0/24'] })),
    invalidValue(
      'spec.podCIDRs',
      '[]string{"10.0.0.0/24", "10.1.0.0/24"}',
      'may specify no more than one CIDR for each IP family',
    ),
  ),
  patched(
    'N33-6 podCIDRs only set from empty',
    NODES,
    node({ podCIDR: '10.0.0.0/24' }),
    { spec: { podCIDR: '10.9.0.0/24', podCIDRs: ['10.9.0.0/24'] } },
    forbidden('spec.podCIDRs', 'node updates may not change podCIDR except from "" to valid'),
  ),
  patched(
    'N33-7 externalID may not be updated',
    NODES,
    node(),
    { spec: { externalID: 'other' } },
    forbidden('spec.externalID', 'may not be updated'),
  ),
  patched(
    'N33-9 status.config sources name a ConfigMap',
    NODES,
    node(),
    { status: { config: { assigned: { configMap: { name: 'c', namespace: 'kube-system', kubeletConfigKey: 'k' } } } } },
    required('status.config.assigned.configMap.uid', 'uid must be set in status'),
    '/status',
  ),
];

const IP_MSG = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const epCases: ValidationCase[] = [
  created(
    'E33-1 addresses are IPs (1.33 wording)',
    post(EPS, eps({ addresses: [{ ip: 'not-an-ip' }] })),
    invalidValue('subsets[0].addresses[0].ip', '"not-an-ip"', IP_MSG),
  ),
  created(
    'E33-2 special ranges named for both families',
    post(EPS, eps({ addresses: [{ ip: '::1' }] })),
    invalidValue('subsets[0].addresses[0].ip', '"::1"', 'may not be in the loopback range (127.0.0.0/8, ::1/128)'),
  ),
  created(
    'E33-3 the unspecified address is printed',
    post(EPS, eps({ addresses: [{ ip: '::' }] })),
    invalidValue('subsets[0].addresses[0].ip', '"::"', 'may not be unspecified (::)'),
  ),
  created(
    'E33-4 port protocols include SCTP',
    post(EPS, eps({ ports: [{ port: 80, protocol: 'QUIC' }] })),
    unsupported('subsets[0].ports[0].protocol', 'QUIC', ['SCTP', 'TCP', 'UDP']),
  ),
  created(
    'E33-5 appProtocol a qualified name',
    post(EPS, eps({ ports: [{ port: 80, protocol: 'TCP', appProtocol: 'bad proto!' }] })),
    invalidValue('subsets[0].ports[0].appProtocol', '"bad proto!"', QUALIFIED_MSG),
  ),
];

const SCOPES_NIL = '[]core.ResourceQuotaScope(nil)';
const sel = (...reqs: Record<string, unknown>[]) => ({ scopeSelector: { matchExpressions: reqs } });
const quotaCases: ValidationCase[] = [
  created(
    'Q33-2 PriorityClass scope only for pod resources',
    post(QUOTAS, quota({ hard: { services: '1' }, scopes: ['PriorityClass'] })),
    invalidValue('spec.scopes', '[]core.ResourceQuotaScope{"PriorityClass"}', 'unsupported scope applied to resource'),
  ),
  created(
    'Q33-3 selector scope names',
    post(QUOTAS, quota({ hard: { pods: '1' }, ...sel({ scopeName: 'Nightly', operator: 'Exists' }) })),
    invalidValue('spec.scopeSelector.matchExpressions.scopeName', '"Nightly"', 'unsupported scope'),
  ),
  created(
    'Q33-4 selector scope valid for the hard resources',
    post(QUOTAS, quota({ hard: { services: '1' }, ...sel({ scopeName: 'BestEffort', operator: 'Exists' }) })),
    invalidValue(
      'spec.scopeSelector.matchExpressions',
      'core.ScopeSelector{MatchExpressions:[]core.ScopedResourceSelectorRequirement{core.ScopedResourceSelectorRequirement{ScopeName:"BestEffort", Operator:"Exists", Values:[]string(nil)}}}',
      'unsupported scope applied to resource',
    ),
  ),
  created(
    'Q33-5 pod scopes only with Exists',
    post(QUOTAS, quota({ hard: { pods: '1' }, ...sel({ scopeName: 'Terminating', operator: 'In', values: ['x'] }) })),
    invalidValue(
      'spec.scopeSelector.matchExpressions.operator',
      '"In"',
      "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
    ),
  ),
  created(
    'Q33-6 In and NotIn have values',
    post(QUOTAS, quota({ hard: { pods: '1' }, ...sel({ scopeName: 'PriorityClass', operator: 'In' }) })),
    required(
      'spec.scopeSelector.matchExpressions.values',
      "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
    ),
  ),
  created(
    'Q33-7 Exists and DoesNotExist have no values',
    post(
      QUOTAS,
      quota({ hard: { pods: '1' }, ...sel({ scopeName: 'PriorityClass', operator: 'Exists', values: ['high'] }) }),
    ),
    invalidValue(
      'spec.scopeSelector.matchExpressions.values',
      '[]string{"high"}',
      "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
    ),
  ),
  created(
    'Q33-8 selector operators',
    post(
      QUOTAS,
      quota({ hard: { pods: '1' }, ...sel({ scopeName: 'PriorityClass', operator: 'Near', values: ['high'] }) }),
    ),
    invalidValue('spec.scopeSelector.matchExpressions.operator', '"Near"', 'not a valid selector operator'),
  ),
  created(
    'Q33-9 selector scopes do not conflict',
    post(
      QUOTAS,
      quota({
        hard: { pods: '1' },
        ...sel({ scopeName: 'BestEffort', operator: 'Exists' }, { scopeName: 'NotBestEffort', operator: 'Exists' }),
      }),
    ),
    invalidValue('spec.scopeSelector.matchExpressions', SCOPES_NIL, 'conflicting scopes'),
  ),
];

const renamedEp = eps({ addresses: [{ ip: '10.1.2.4', nodeName: 'node-a' }] });
const csiPv = pv({ hostPath: undefined, csi: { driver: 'csi.example.com', volumeHandle: 'h' } });
const nilClassPvc = pvc();
const accepted: Call[] = [
  post(PVS, pv({ accessModes: ['ReadWriteOncePod'], volumeMode: 'Block' })),
  post(PVS, pv({ hostPath: undefined, local: { path: '/mnt/disk' }, nodeAffinity: affinity() })),
  post(PVS, csiPv),
  [
    'PATCH',
    `${PVS}/${csiPv.metadata.name}`,
    { spec: { csi: { controllerExpandSecretRef: { name: 's', namespace: 'default' } } } },
    merge,
  ],
  post(PVCS, pvc({ accessModes: ['ReadWriteOncePod'], volumeMode: 'Block' })),
  post(PVCS, nilClassPvc),
  ['PATCH', `${PVCS}/${nilClassPvc.metadata.name}`, { spec: { storageClassName: 'fast' } }, merge],
  post(NODES, node({ podCIDRs: ['10.0.0.0/24', 'fd00::/64'] })),
  post(EPS, renamedEp),
  [
    'PATCH',
    `${EPS}/${renamedEp.metadata.name}`,
    { subsets: [{ addresses: [{ ip: '10.1.2.4', nodeName: 'node-b' }] }] },
    merge,
  ],
  post(EPS, eps({ ports: [{ port: 80, protocol: 'SCTP', appProtocol: 'kubernetes.io/h2c' }] })),
  post(QUOTAS, quota({ hard: { pods: '1' }, scopes: ['PriorityClass', 'CrossNamespacePodAffinity'] })),
  post(
    QUOTAS,
    quota({ hard: { pods: '1' }, ...sel({ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }) }),
  ),
];

validationSuite(
  'core rules since 1.10',
  () => srv,
  [...pvCases, ...pvcCases, ...nodeCases, ...epCases, ...quotaCases],
  accepted,
);

describe('core behaviours since 1.10', () => {
  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    srv.api(method, path, body, headers);

  it('PV33-6 / PVC33-4 volumeMode defaults to Filesystem', async () => {
    const a = await api('POST', PVS, pv());
    const b = await api('POST', PVCS, pvc());
    expect([a.body.spec.volumeMode, b.body.spec.volumeMode]).toEqual(['Filesystem', 'Filesystem']);
  });

  it('PV33-13 / PVC33-12 immutable specs are reported with 1.33 wording', async () => {
    const v = pv();
    await api('POST', PVS, v);
    const a = await api('PATCH', `${PVS}/${v.metadata.name}`, { spec: { hostPath: { path: '/other' } } }, merge);
    expect(a.status).toBe(422);
    expect(a.body.details.causes[0].field).toBe('spec.persistentvolumesource');
    expect(a.body.details.causes[0].message).toMatch(
      /^Forbidden: spec\.persistentvolumesource is immutable after creation\n/,
    );
    const c = pvc();
    await api('POST', PVCS, c);
    const b = await api('PATCH', `${PVCS}/${c.metadata.name}`, { spec: { accessModes: ['ReadOnlyMany'] } }, merge);
    expect(b.status).toBe(422);
    expect(b.body.details.causes[0].message).toMatch(
      /^Forbidden: spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims\n/,
    );
  });

  it('PV33-18 / PVC33-21 VolumeAttributesClass fields are dropped (gate off)', async () => {
    const a = await api('POST', PVS, pv({ volumeAttributesClassName: 'gold' }));
    const b = await api('POST', PVCS, pvc({ volumeAttributesClassName: 'gold' }));
    expect([a.status, b.status]).toEqual([201, 201]);
    expect([a.body.spec.volumeAttributesClassName, b.body.spec.volumeAttributesClassName]).toEqual([
      undefined,
      undefined,
    ]);
  });

  it('PVC33-9 a dataSource other than a claim or snapshot is dropped on create', async () => {
    const res = await api('POST', PVCS, pvc({ dataSource: { apiGroup: 'example.com', kind: 'Hello', name: 'h' } }));
    expect(res.status, res.text).toBe(201);
    expect(res.body.spec.dataSource).toBeUndefined();
    expect(res.body.spec.dataSourceRef).toBeUndefined();
  });

  it('PVC33-10 dataSource and dataSourceRef are copied to one another', async () => {
    const a = await api('POST', PVCS, pvc({ dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } }));
    expect(a.body.spec.dataSourceRef).toEqual({ kind: 'PersistentVolumeClaim', name: 'src' });
    const b = await api('POST', PVCS, pvc({ dataSourceRef: { apiGroup: 'example.com', kind: 'Hello', name: 'h' } }));
    expect(b.body.spec.dataSource).toEqual({ apiGroup: 'example.com', kind: 'Hello', name: 'h' });
  });

  it('PVC33-11 a namespaced dataSourceRef is dropped (CrossNamespaceVolumeDataSource off)', async () => {
    const res = await api(
      'POST',
      PVCS,
      pvc({ dataSourceRef: { kind: 'PersistentVolumeClaim', name: 's', namespace: 'other' } }),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.spec.dataSourceRef).toBeUndefined();
  });

  it('N33-1 / N33-2 / N33-10 nodes: no externalID needed, configSource dropped, podCIDR mirrored', async () => {
    const res = await api('POST', NODES, {
      metadata: { name: name('node33') },
      spec: {
        podCIDR: '10.4.0.0/24',
        configSource: { configMap: { name: 'c', namespace: 'kube-system', kubeletConfigKey: 'k' } },
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.spec.configSource).toBeUndefined();
    expect(res.body.spec.podCIDRs).toEqual(['10.4.0.0/24']);
  });
});
