/**
 * The Endpoints controller's sync, ported from upstream 1.33
 * pkg/controller/endpoint/endpoints_controller_test.go (TestSyncEndpoints*, TestSyncService*,
 * TestLastTriggerChangeTimeAnnotation*): which writes a sync makes and what they carry.
 */
import { describe, expect, it } from 'vitest';
import { TriggerTimeTracker } from '../endpointslice/trigger-time.js';
import { existingEndpoints, FakeEndpointsClient, makePods, notReadyPodsInPhase, service } from './endpoints.fixture.js';
import { syncEndpoints } from './sync.js';

const HEADLESS = { 'service.kubernetes.io/headless': '' };
const addr = (ns: string, ip: string, pod: string) => ({
  ip,
  targetRef: { kind: 'Pod', name: pod, namespace: ns },
});
const tcp8080 = { targetPort: 8080, port: 80, protocol: 'TCP' };
const old1000 = (protocol?: string) => [
  { addresses: [{ ip: '6.7.8.9', nodeName: '' }], ports: [{ port: 1000, ...(protocol ? { protocol } : {}) }] },
];

async function sync(client: FakeEndpointsClient, ns: string, name = 'foo', tracker = new TriggerTimeTracker()) {
  await syncEndpoints(ns, name, client, tracker);
  return client.requests;
}

describe('syncEndpoints: no write', () => {
  it('keeps the Endpoints of a Service without a selector (ItemsPreserveNoSelector)', async () => {
    const c = new FakeEndpointsClient();
    c.endpoints.set('default/foo', existingEndpoints('default', old1000()));
    c.services.push(service('default', 'foo', { ports: [{ port: 80 }] }));
    expect(await sync(c, 'default')).toEqual([]);
  });

  it.each([
    ['nil', undefined],
    ['empty', []],
  ])('leaves %s subsets alone when no pod matches (ExistingNilSubsets, ExistingEmptySubsets)', async (_n, subsets) => {
    const c = new FakeEndpointsClient();
    c.endpoints.set('default/foo', existingEndpoints('default', subsets));
    c.services.push(service('default', 'foo', { selector: { foo: 'bar' }, ports: [{ port: 80 }] }));
    expect(await sync(c, 'default')).toEqual([]);
  });

  it('ignores a change of the pods’ resourceVersion only (WithPodResourceVersionUpdateOnly)', async () => {
    const c = new FakeEndpointsClient();
    const [pod0, pod1] = makePods('default', 1, 1, 1);
    const ref = (name: string, rv: string) => ({ kind: 'Pod', name, namespace: 'default', resourceVersion: rv });
    c.endpoints.set(
      'default/foo',
      existingEndpoints('default', [
        {
          addresses: [{ ip: '1.2.3.4', targetRef: ref('pod0', '1') }],
          notReadyAddresses: [{ ip: '1.2.3.5', targetRef: ref('pod1', '2') }],
          ports: [{ port: 8080, protocol: 'TCP' }],
        },
      ]),
    );
    c.services.push(service('default', 'foo', { selector: { foo: 'bar' }, ports: [tcp8080] }));
    c.pods = [pod0, pod1].map((p, i) => ({ ...p, metadata: { ...p.metadata, resourceVersion: String(3 + i) } }));
    expect(await sync(c, 'default')).toEqual([]);
  });

  it('does not add or compare the headless label alone (HeadlessServiceLabel)', async () => {
    const c = new FakeEndpointsClient();
    c.endpoints.set('default/foo', existingEndpoints('default', [], { labels: HEADLESS }));
    c.services.push(service('default', 'foo', { selector: { foo: 'bar' }, ports: [{ port: 80 }] }));
    expect(await sync(c, 'default')).toEqual([]);
  });

  it.each([
    ['with selector and ports', { selector: { foo: 'bar' }, ports: [{ port: 80 }] }],
    ['with ports', { ports: [{ port: 80 }] }],
    ['with selector', { selector: { foo: 'bar' } }],
    ['without selector and ports', {}],
  ])('gives an ExternalName Service %s no endpoints (SyncServiceExternalNameType)', async (_n, spec) => {
    const c = new FakeEndpointsClient();
    c.services.push(service('default', 'testing-1', { ...spec, type: 'ExternalName' }));
    expect(await sync(c, 'default', 'testing-1')).toEqual([]);
  });

  it('leaves identical Endpoints alone (ItemsPreexistingIdentical)', async () => {
    const c = new FakeEndpointsClient();
    c.endpoints.set(
      'default/foo',
      existingEndpoints('default', [
        { addresses: [addr('default', '1.2.3.4', 'pod0')], ports: [{ port: 8080, protocol: 'TCP' }] },
      ]),
    );
    c.pods = makePods('default', 1, 1, 0);
    c.services.push(service('default', 'foo', { selector: { foo: 'bar' }, ports: [tcp8080] }));
    expect(await sync(c, 'default')).toEqual([]);
  });
});

describe('syncEndpoints: writes', () => {
  it('creates empty Endpoints for a new Service (NewNoSubsets)', async () => {
    const c = new FakeEndpointsClient();
    c.services.push(service('default', 'foo', { selector: { foo: 'bar' }, ports: [{ port: 80 }] }));
    const reqs = await sync(c, 'default');
    expect(reqs.map((r) => r.verb)).toEqual(['create']);
    expect(reqs[0].body?.subsets).toEqual([]);
  });

  it.each(['TCP', 'UDP', 'SCTP'])(
    'replaces the addresses with the pod’s on protocol %s (SyncEndpointsProtocol*)',
    async (protocol) => {
      const c = new FakeEndpointsClient();
      c.endpoints.set('other/foo', existingEndpoints('other', old1000(protocol)));
      c.pods = makePods('other', 1, 1, 0);
      c.services.push(service('other', 'foo', { selector: {}, ports: [{ port: 80, targetPort: 8080, protocol }] }));
      const reqs = await sync(c, 'other');
      expect(reqs.map((r) => r.verb)).toEqual(['update']);
      expect(reqs[0].body?.metadata.labels).toEqual(HEADLESS);
      expect(reqs[0].body?.metadata.resourceVersion).toBe('1');
      expect(reqs[0].body?.subsets).toEqual([
        { addresses: [addr('other', '1.2.3.4', 'pod0')], ports: [{ port: 8080, protocol }] },
      ]);
    },
  );

  it.each([
    ['ready', 1, 0, [{ addresses: [addr('other', '1.2.3.4', 'pod0')], ports: [{ port: 8080, protocol: 'TCP' }] }]],
    [
      'not ready',
      0,
      1,
      [{ notReadyAddresses: [addr('other', '1.2.3.4', 'pod0')], ports: [{ port: 8080, protocol: 'TCP' }] }],
    ],
    [
      'mixed',
      1,
      1,
      [
        {
          addresses: [addr('other', '1.2.3.4', 'pod0')],
          notReadyAddresses: [addr('other', '1.2.3.5', 'pod1')],
          ports: [{ port: 8080, protocol: 'TCP' }],
        },
      ],
    ],
  ])('an empty selector selects every pod, %s (ItemsEmptySelectorSelectsAll*)', async (_n, ready, notReady, want) => {
    const c = new FakeEndpointsClient();
    c.endpoints.set('other/foo', existingEndpoints('other', []));
    c.pods = makePods('other', ready, 1, notReady);
    c.services.push(service('other', 'foo', { selector: {}, ports: [tcp8080] }));
    const reqs = await sync(c, 'other');
    expect(reqs[0].body?.subsets).toEqual(want);
  });

  it('replaces preexisting addresses (ItemsPreexisting)', async () => {
    const c = new FakeEndpointsClient();
    c.endpoints.set('bar/foo', existingEndpoints('bar', old1000()));
    c.pods = makePods('bar', 1, 1, 0);
    c.services.push(service('bar', 'foo', { selector: { foo: 'bar' }, ports: [tcp8080] }));
    const reqs = await sync(c, 'bar');
    expect(reqs[0].body?.subsets).toEqual([
      { addresses: [addr('bar', '1.2.3.4', 'pod0')], ports: [{ port: 8080, protocol: 'TCP' }] },
    ]);
  });

  it.each([
    ['without labels', undefined],
    ['with the Service’s labels', { foo: 'bar' }],
  ])('creates one subset of 3 pods on 2 ports, %s (SyncEndpointsItems, ItemsWithLabels)', async (_n, labels) => {
    const c = new FakeEndpointsClient();
    c.pods = [...makePods('other', 3, 2, 0), ...makePods('blah', 5, 2, 0)];
    const ports = [
      { name: 'port0', port: 80, protocol: 'TCP', targetPort: 8080 },
      { name: 'port1', port: 88, protocol: 'TCP', targetPort: 8088 },
    ];
    c.services.push(service('other', 'foo', { selector: { foo: 'bar' }, ports }, labels));
    const reqs = await sync(c, 'other');
    expect(reqs.map((r) => r.verb)).toEqual(['create']);
    expect(reqs[0].body?.metadata.labels).toEqual({ ...labels, ...HEADLESS });
    expect(reqs[0].body?.subsets).toEqual([
      {
        addresses: ['1.2.3.4', '1.2.3.5', '1.2.3.6'].map((ip, i) => addr('other', ip, `pod${i}`)),
        ports: [
          { name: 'port0', port: 8080, protocol: 'TCP' },
          { name: 'port1', port: 8088, protocol: 'TCP' },
        ],
      },
    ]);
  });

  it('replaces the labels with the Service’s (ItemsPreexistingLabelsChange)', async () => {
    const c = new FakeEndpointsClient();
    c.endpoints.set('bar/foo', existingEndpoints('bar', old1000(), { labels: { foo: 'bar' } }));
    c.pods = makePods('bar', 1, 1, 0);
    c.services.push(service('bar', 'foo', { selector: { foo: 'bar' }, ports: [tcp8080] }, { baz: 'blah' }));
    const reqs = await sync(c, 'bar');
    expect(reqs[0].body?.metadata.labels).toEqual({ baz: 'blah', ...HEADLESS });
  });

  it('gives a headless Service without ports its addresses without ports (HeadlessService, HeadlessWithoutPort)', async () => {
    const c = new FakeEndpointsClient();
    c.endpoints.set('headless/foo', existingEndpoints('headless', old1000('TCP')));
    c.pods = makePods('headless', 1, 1, 0);
    const svc = service('headless', 'foo', { selector: {}, clusterIP: 'None', ports: [] }, { a: 'b' });
    c.services.push(svc);
    const before = structuredClone(svc);
    const reqs = await sync(c, 'headless');
    expect(svc).toEqual(before);
    expect(reqs[0].body?.metadata.labels).toEqual({ a: 'b', ...HEADLESS });
    expect(reqs[0].body?.subsets).toEqual([{ addresses: [addr('headless', '1.2.3.4', 'pod0')] }]);
  });

  it.each([
    ['Never', 'Failed'],
    ['Never', 'Succeeded'],
    ['OnFailure', 'Succeeded'],
  ])('leaves out terminal pods, restartPolicy %s and phase %s (ItemsExcludeNotReadyPods*)', async (policy, phase) => {
    const c = new FakeEndpointsClient();
    c.endpoints.set('other/foo', existingEndpoints('other', [], { labels: { foo: 'bar' } }));
    c.pods = notReadyPodsInPhase('other', 1, 1, policy, phase);
    c.services.push(service('other', 'foo', { selector: { foo: 'bar' }, ports: [tcp8080] }));
    const reqs = await sync(c, 'other');
    expect(reqs.map((r) => r.verb)).toEqual(['update']);
    expect(reqs[0].body?.metadata.labels).toEqual(HEADLESS);
    expect(reqs[0].body?.subsets).toEqual([]);
  });

  it('deletes the Endpoints of a Service that is gone (SyncEndpointsServiceNotFound)', async () => {
    const c = new FakeEndpointsClient();
    c.endpoints.set('default/foo', existingEndpoints('default', undefined));
    expect(await sync(c, 'default')).toEqual([{ verb: 'delete', namespace: 'default', name: 'foo' }]);
  });
});

describe('syncEndpoints: the last change trigger time (TestLastTriggerChangeTimeAnnotation*)', () => {
  const KEY = 'endpoints.kubernetes.io/last-change-trigger-time';
  const created = '2018-01-01T00:00:00Z';
  it.each([
    ['set from the Service’s creation', undefined, created, created],
    ['overridden', { [KEY]: '2017-12-31T23:00:00Z' }, created, created],
    ['cleared when nothing has a trigger time', { [KEY]: created }, undefined, undefined],
  ])('is %s', async (_n, annotations, creationTimestamp, want) => {
    const c = new FakeEndpointsClient();
    c.endpoints.set('other/foo', existingEndpoints('other', old1000('TCP'), annotations ? { annotations } : {}));
    c.pods = makePods('other', 1, 1, 0);
    const svc = service('other', 'foo', { selector: {}, ports: [tcp8080] });
    if (creationTimestamp) svc.metadata.creationTimestamp = creationTimestamp;
    c.services.push(svc);
    const reqs = await sync(c, 'other');
    expect(reqs[0].body?.metadata.annotations?.[KEY]).toBe(want);
  });
});

describe('syncEndpoints: failed writes', () => {
  it.each([
    ['update', true, 'FailedToUpdateEndpoint', 'Failed to update endpoint other/foo: boom'],
    ['create', false, 'FailedToCreateEndpoint', 'Failed to create endpoint for service other/foo: boom'],
  ])('reports a failed %s as a Warning and throws for a retry', async (_n, exists, reason, message) => {
    const c = new FakeEndpointsClient();
    if (exists) c.endpoints.set('other/foo', existingEndpoints('other', old1000('TCP')));
    c.pods = makePods('other', 1, 1, 0);
    c.services.push(service('other', 'foo', { selector: {}, ports: [tcp8080] }));
    c.createEndpoints = c.updateEndpoints = async () => {
      throw new Error('boom');
    };
    const seen: [string, string, string][] = [];
    const run = syncEndpoints('other', 'foo', c, new TriggerTimeTracker(), (ep, r, m) =>
      seen.push([ep.metadata.name ?? '', r, m]),
    );
    await expect(run).rejects.toThrow('boom');
    expect(seen).toEqual([['foo', reason, message]]);
  });
});
