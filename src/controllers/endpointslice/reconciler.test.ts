/**
 * The EndpointSlice reconciler, ported from upstream 1.33 k8s.io/endpointslice/reconciler_test.go:
 * TestReconcileEmpty, TestReconcile1Pod, TestReconcile1EndpointSlice,
 * TestReconcile1EndpointSlicePublishNotReadyAddresses, TestReconcileManyPods,
 * TestReconcileEndpointSlicesNamedPorts, TestReconcileMaxEndpointsPerSlice (the cases with
 * existing slices are in reconciler-existing.test.ts). Metrics and topology hints are not
 * implemented, so their expectations are not ported.
 */
import { describe, expect, it } from 'vitest';
import type { Service } from '../../resources/services/services.schema.js';
import { newEndpointSlice } from './slice.js';
import {
  FakeSliceClient,
  lengths,
  newEmptyEndpointSlice,
  newPod,
  newService,
  podsOf,
  reconcile,
  seed,
} from './slices.fixture.js';

const ns = 'test';
const MANAGED = 'endpointslice-controller.k8s.io';
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

describe('reconcileSlices: creating', () => {
  it('creates one placeholder for a Service without pods (TestReconcileEmpty)', async () => {
    const c = new FakeSliceClient();
    await reconcile(c, newService('foo', ns), []);
    expect(c.verbs()).toEqual(['create']);
    const [slice] = c.all();
    expect(slice.metadata.name).toMatch(/^foo-/);
    expect(slice.metadata.labels?.['kubernetes.io/service-name']).toBe('foo');
    expect(slice.ports).toEqual([]);
    expect(slice.endpoints).toEqual([]);
  });

  describe('one pod (TestReconcile1Pod)', () => {
    const pod1 = newPod(1, ns, true, 1, false);
    pod1.status!.podIPs = [{ ip: '1.2.3.4' }, { ip: '1234::5678:0000:0000:9abc:def0' }];
    pod1.spec!.hostname = 'example-hostname';
    const svc = (labels?: Record<string, string>, spec: Partial<NonNullable<Service['spec']>> = {}) => {
      const s = newService('foo', ns);
      if (labels) s.metadata.labels = labels;
      s.spec = { ...s.spec, ...spec };
      return s;
    };
    const ep = (address: string) => ({
      addresses: [address],
      conditions: { ready: true, serving: true, terminating: false },
      nodeName: 'node-1',
      targetRef: { kind: 'Pod', namespace: ns, name: 'pod1' },
      zone: 'us-central1-a',
    });
    const own = { 'endpointslice.kubernetes.io/managed-by': MANAGED, 'kubernetes.io/service-name': 'foo' };
    const headless = { ...own, 'service.kubernetes.io/headless': '' };
    const v6 = '1234::5678:0:0:9abc:def0';
    it.each([
      [
        'no-family-service',
        svc(undefined, { clusterIP: '10.0.0.10', ipFamilies: undefined }),
        { IPv4: '1.2.3.4' },
        own,
      ],
      ['ipv4', svc(), { IPv4: '1.2.3.4' }, headless],
      ['ipv4-clusterip', svc(undefined, { clusterIP: '1.1.1.1' }), { IPv4: '1.2.3.4' }, own],
      ['ipv4-labels', svc({ foo: 'bar' }), { IPv4: '1.2.3.4' }, { ...headless, foo: 'bar' }],
      [
        'ipv4-bad-labels',
        svc({
          'kubernetes.io/service-name': 'bad',
          'endpointslice.kubernetes.io/managed-by': 'actor',
          'service.kubernetes.io/headless': 'invalid',
        }),
        { IPv4: '1.2.3.4' },
        headless,
      ],
      ['ipv6', svc(undefined, { ipFamilies: ['IPv6'] }), { IPv6: v6 }, headless],
      [
        'ipv6-clusterip',
        svc(undefined, { clusterIP: '1234::5678:0000:0000:9abc:def1', ipFamilies: ['IPv6'] }),
        { IPv6: v6 },
        own,
      ],
      [
        'dualstack-service',
        svc(undefined, { ipFamilies: ['IPv4', 'IPv6'], clusterIP: '10.0.0.10', clusterIPs: ['10.0.0.10', '2000::1'] }),
        { IPv4: '1.2.3.4', IPv6: v6 },
        own,
      ],
    ])('%s', async (_n, service, perType, labels) => {
      const c = new FakeSliceClient();
      c.nodes.set('node-1', {
        metadata: {
          name: 'node-1',
          labels: { 'topology.kubernetes.io/zone': 'us-central1-a', 'topology.kubernetes.io/region': 'us-central1' },
        },
      });
      await reconcile(c, service, [pod1]);
      const slices = c.all();
      expect(Object.fromEntries(slices.map((s) => [s.addressType, s.endpoints]))).toEqual(
        Object.fromEntries(Object.entries(perType).map(([t, a]) => [t, [ep(a)]])),
      );
      for (const s of slices) expect(s.metadata.labels).toEqual(labels);
    });
  });

  it.each([
    ['no existing placeholder', undefined, ['create']],
    [
      'an existing placeholder that is the same',
      newEndpointSlice(newService('foo', ns), { ports: [], addressType: 'IPv4' }),
      [],
    ],
    ['an existing placeholder that differs', { ...newEmptyEndpointSlice(1, newService('foo', ns)) }, ['update']],
  ])('keeps one placeholder: %s (TestReconcile1EndpointSlice)', async (_n, existing, verbs) => {
    const c = new FakeSliceClient();
    const svc = newService('foo', ns);
    if (existing?.metadata.name) existing.metadata.labels = { bar: 'baz' };
    if (existing?.metadata.name) seed(c, [existing]);
    await reconcile(c, svc, [], existing ? [existing] : []);
    expect(c.verbs()).toEqual(verbs);
    if (verbs.length) expect(c.all()).toHaveLength(1);
  });

  it('publishes not-ready pods as ready with publishNotReadyAddresses (…PublishNotReadyAddresses)', async () => {
    const c = new FakeSliceClient();
    const svc = newService('foo', ns);
    svc.spec!.publishNotReadyAddresses = true;
    await reconcile(
      c,
      svc,
      Array.from({ length: 50 }, (_, i) => newPod(i, ns, i % 3 !== 0, 1, false)),
    );
    expect(c.verbs()).toEqual(['create']);
    expect(lengths(c.all())).toEqual([50]);
    expect(c.all()[0].endpoints?.every((e) => e.conditions?.ready)).toBe(true);
  });

  it('fills slices of 100 for 250 pods (TestReconcileManyPods)', async () => {
    const c = new FakeSliceClient();
    await reconcile(c, newService('foo', ns), podsOf(250));
    expect(c.verbs()).toEqual(['create', 'create', 'create']);
    expect(lengths(c.all())).toEqual([50, 100, 100]);
  });

  it.each([
    [50, [50, 50, 50, 50, 50]],
    [80, [80, 80, 80, 10]],
    [150, [150, 100]],
    [250, [250]],
    [500, [250]],
  ])('honours maxEndpointsPerSlice %i (TestReconcileMaxEndpointsPerSlice)', async (max, want) => {
    const c = new FakeSliceClient();
    await reconcile(c, newService('foo', ns), podsOf(250), [], max);
    expect(lengths(c.all())).toEqual(sorted(want));
  });

  it('groups pods by the port a named targetPort resolves to (TestReconcileEndpointSlicesNamedPorts)', async () => {
    const c = new FakeSliceClient();
    const svc: Service = {
      metadata: { name: 'named-port-example', namespace: ns, uid: 'u' },
      spec: {
        ports: [{ port: 80, targetPort: 'http', protocol: 'TCP' }],
        selector: { foo: 'bar' },
        ipFamilies: ['IPv4'],
      },
    };
    const pods = podsOf(300).map((p, i) => {
      p.spec!.containers[0].ports = [{ name: 'http', containerPort: 8080 + (i % 5), protocol: 'TCP' }];
      return p;
    });
    await reconcile(c, svc, pods);
    expect(c.verbs()).toEqual(Array(5).fill('create'));
    expect(lengths(c.all())).toEqual([60, 60, 60, 60, 60]);
    expect(
      c
        .all()
        .map((s) => s.ports?.[0].port)
        .sort(),
    ).toEqual([8080, 8081, 8082, 8083, 8084]);
    expect(c.all().every((s) => s.ports?.[0].name === '' && s.addressType === 'IPv4')).toBe(true);
  });
});
