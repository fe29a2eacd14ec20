/**
 * Addresses, capacity and comparison of the Endpoints controller, ported from upstream 1.33
 * endpoints_controller_test.go: TestPodToEndpointAddressForService, TestSyncServiceAddresses,
 * TestSyncServiceOverCapacity, TestTruncateEndpoints, TestEndpointPortFromServicePort,
 * TestEndpointSubsetsEqualIgnoreResourceVersion.
 */
import { isIPv6 } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { TriggerTimeTracker } from '../endpointslice/trigger-time.js';
import {
  endpointPortFromServicePort,
  MAX_CAPACITY,
  OVER_CAPACITY,
  podToEndpointAddressForService,
  subsetsEqualIgnoringResourceVersion,
  truncateSubsets,
} from './addresses.js';
import {
  existingEndpoints,
  FakeEndpointsClient,
  makePods,
  service,
  testPod,
  type Families,
} from './endpoints.fixture.js';
import type { EndpointSubset } from './repack.js';
import { syncEndpoints } from './sync.js';

const v4: Families = ['IPv4'];
const v6: Families = ['IPv6'];
const v4v6: Families = ['IPv4', 'IPv6'];
const v6v4: Families = ['IPv6', 'IPv4'];

describe('podToEndpointAddressForService', () => {
  it.each([
    ['v4 service, single stack', v4, { clusterIP: '10.0.0.1' }, 'IPv4'],
    ['v4 service, dual stack', v4v6, { clusterIP: '10.0.0.1' }, 'IPv4'],
    ['v4 service, dual stack ipv6-primary', v6v4, { clusterIP: '10.0.0.1' }, 'IPv4'],
    ['v4 headless, single stack', v4, { clusterIP: 'None' }, 'IPv4'],
    ['v4 headless, dual stack', v4v6, { clusterIP: 'None', ipFamilies: ['IPv4'] }, 'IPv4'],
    ['v4 legacy headless, dual stack', v4v6, { clusterIP: 'None' }, 'IPv4'],
    ['v4 legacy headless, dual stack ipv6-primary', v6v4, { clusterIP: 'None' }, 'IPv6'],
    ['v6 service, dual stack', v4v6, { clusterIP: '3000::1' }, 'IPv6'],
    ['v6 headless, single stack', v6, { clusterIP: 'None' }, 'IPv6'],
    ['v6 headless, dual stack (new api-server)', v4v6, { clusterIP: 'None', ipFamilies: ['IPv6'] }, 'IPv6'],
    ['v6 legacy headless, dual stack (old api-server)', v4v6, { clusterIP: 'None' }, 'IPv4'],
    ['v6 service, v4 only cluster', v4, { clusterIP: '3000::1' }, undefined],
  ])('%s', (_n, families, spec, family) => {
    const pod = testPod('test', 0, 1, true, families);
    const epa = podToEndpointAddressForService(service('test', 'foo', spec), pod);
    if (!family) return expect(epa).toBeUndefined();
    expect(isIPv6(epa!.ip)).toBe(family === 'IPv6');
    expect(epa).not.toHaveProperty('nodeName'); // upstream writes "" (see podToEndpointAddressForService)
    expect(epa!.targetRef).toEqual({ kind: 'Pod', namespace: 'test', name: 'pod0' });
    expect(epa!.targetRef).not.toHaveProperty('resourceVersion');
  });
});

it('podToEndpointAddressForService names the pod’s node', () => {
  const pod = testPod('test', 0, 1, true);
  pod.spec = { ...pod.spec!, nodeName: 'node-1' };
  expect(podToEndpointAddressForService(service('test', 'foo', {}), pod)?.nodeName).toBe('node-1');
});

describe('syncEndpoints: which pods are addresses (TestSyncServiceAddresses)', () => {
  const pod = (phase: string, ready: boolean, terminating: boolean): Pod => ({
    metadata: {
      namespace: 'ns',
      name: 'fakepod',
      labels: { foo: 'bar' },
      ...(terminating ? { deletionTimestamp: new Date().toISOString() } : {}),
    },
    spec: { containers: [{ name: 'c', ports: [{ name: 'port1', containerPort: 8080 }] }] },
    status: {
      phase,
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
      podIP: '10.1.1.1',
      podIPs: [{ ip: '10.1.1.1' }],
    },
  });
  it.each([
    ['running', 'Running', true, false, false, 1, 0],
    ['running being deleted', 'Running', true, true, false, 0, 0],
    ['unknown, ready', 'Unknown', true, false, false, 1, 0],
    ['unknown, ready, being deleted', 'Unknown', true, true, false, 0, 0],
    ['pending, ready', 'Pending', true, false, false, 1, 0],
    ['pending, ready, being deleted', 'Pending', true, true, false, 0, 0],
    ['unknown, not ready', 'Unknown', false, false, false, 0, 1],
    ['pending, not ready', 'Pending', false, false, false, 0, 1],
    ['failed', 'Failed', false, false, false, 0, 0],
    ['succeeded', 'Succeeded', false, false, false, 0, 0],
    ['running, tolerate unready', 'Running', false, false, true, 1, 0],
    ['running, tolerate unready, being deleted', 'Running', false, true, true, 1, 0],
    ['unknown, tolerate unready', 'Unknown', false, false, true, 1, 0],
    ['unknown, tolerate unready, being deleted', 'Unknown', false, true, true, 1, 0],
    ['pending, tolerate unready', 'Pending', false, false, true, 1, 0],
    ['pending, tolerate unready, being deleted', 'Pending', false, true, true, 1, 0],
    ['failed, tolerate unready', 'Failed', false, false, true, 0, 0],
    ['succeeded, tolerate unready', 'Succeeded', false, false, true, 0, 0],
  ])('pod %s', async (_n, phase, ready, terminating, tolerate, wantReady, wantUnready) => {
    const c = new FakeEndpointsClient();
    c.pods = [pod(phase, ready, terminating)];
    c.services.push(
      service('ns', 'foo', {
        selector: { foo: 'bar' },
        publishNotReadyAddresses: tolerate,
        type: 'ClusterIP',
        clusterIP: '1.1.1.1',
        ports: [{ port: 80 }],
      }),
    );
    await syncEndpoints('ns', 'foo', c, new TriggerTimeTracker());
    const subsets = (await c.getEndpoints('ns', 'foo'))?.subsets ?? [];
    expect(subsets.reduce((n, s) => n + (s.addresses?.length ?? 0), 0)).toBe(wantReady);
    expect(subsets.reduce((n, s) => n + (s.notReadyAddresses?.length ?? 0), 0)).toBe(wantUnready);
  });
});

describe('syncEndpoints: over capacity (TestSyncServiceOverCapacity)', () => {
  it.each([
    ['empty', undefined, 0, 0, 0, 0, 0, false],
    ['added past capacity, < max ready', undefined, MAX_CAPACITY - 1, MAX_CAPACITY - 3, 4, MAX_CAPACITY - 3, 3, true],
    ['added past capacity, max ready', undefined, MAX_CAPACITY - 1, MAX_CAPACITY, 10, MAX_CAPACITY, 0, true],
    ['removed below capacity', 'truncated', MAX_CAPACITY - 1, MAX_CAPACITY - 1, 0, MAX_CAPACITY - 1, 0, false],
    ['warning before, removed at capacity', 'warning', MAX_CAPACITY, MAX_CAPACITY, 0, MAX_CAPACITY, 0, false],
    ['warning before, still over', 'warning', MAX_CAPACITY + 1, MAX_CAPACITY + 1, 0, MAX_CAPACITY, 0, true],
    ['removed at capacity', 'truncated', MAX_CAPACITY, MAX_CAPACITY, 0, MAX_CAPACITY, 0, false],
    ['value corrected', 'invalid', MAX_CAPACITY + 1, MAX_CAPACITY + 1, 0, MAX_CAPACITY, 0, true],
  ])('annotation %s', async (_n, starting, existing, desired, desiredNotReady, wantReady, wantNotReady, annotated) => {
    const c = new FakeEndpointsClient();
    const pods = makePods('test', desired, 1, desiredNotReady);
    c.pods = pods;
    const svc = service('test', 'foo', { selector: { foo: 'bar' }, ports: [{ port: 80 }] });
    c.services.push(svc);
    const addresses = pods.slice(0, existing).map((p) => podToEndpointAddressForService(svc, p)!);
    const annotations: Record<string, string> = starting ? { [OVER_CAPACITY]: starting } : {};
    c.endpoints.set('test/foo', existingEndpoints('test', [{ addresses }], { annotations }));
    await syncEndpoints('test', 'foo', c, new TriggerTimeTracker());
    const got = (await c.getEndpoints('test', 'foo'))!;
    expect(got.metadata.annotations?.[OVER_CAPACITY]).toBe(annotated ? 'truncated' : undefined);
    const subsets = got.subsets ?? [];
    expect(subsets.reduce((n, s) => n + (s.addresses?.length ?? 0), 0)).toBe(wantReady);
    expect(subsets.reduce((n, s) => n + (s.notReadyAddresses?.length ?? 0), 0)).toBe(wantNotReady);
  });
});

describe('truncateSubsets (TestTruncateEndpoints)', () => {
  it.each([
    ['empty', [], [], [], []],
    [
      'total < max',
      [50, 100, 100, 100, 100],
      [50, 100, 100, 100, 100],
      [50, 100, 100, 100, 100],
      [50, 100, 100, 100, 100],
    ],
    [
      'total = max',
      [100, 100, 100, 100, 100],
      [100, 100, 100, 100, 100],
      [100, 100, 100, 100, 100],
      [100, 100, 100, 100, 100],
    ],
    [
      'ready < max < total',
      [90, 110, 50, 10, 20],
      [101, 200, 200, 201, 298],
      [90, 110, 50, 10, 20],
      [73, 144, 144, 145, 214],
    ],
    ['ready > max', [205, 400, 402, 400, 693], [100, 200, 200, 200, 300], [98, 191, 192, 191, 328], [0, 0, 0, 0, 0]],
  ])('%s', (_n, ready, notReady, wantReady, wantNotReady) => {
    const a = { ip: '1.1.1.1' };
    const subsets: EndpointSubset[] = ready.map((r, i) => ({
      addresses: Array.from({ length: r }, () => a),
      notReadyAddresses: Array.from({ length: notReady[i] }, () => a),
    }));
    truncateSubsets(subsets);
    expect(subsets.map((s) => s.addresses?.length ?? 0)).toEqual(wantReady);
    expect(subsets.map((s) => s.notReadyAddresses?.length ?? 0)).toEqual(wantNotReady);
  });
});

describe('endpointPortFromServicePort (TestEndpointPortFromServicePort)', () => {
  it.each([
    ['empty app protocol', undefined],
    ['http app protocol', 'http'],
  ])('%s', (_n, appProtocol) => {
    const epp = endpointPortFromServicePort({ name: 'test', port: 0, ...(appProtocol ? { appProtocol } : {}) }, 80);
    expect(epp.appProtocol).toBe(appProtocol);
    expect(epp).toMatchObject({ name: 'test', port: 80 });
  });
});

describe('subsetsEqualIgnoringResourceVersion (TestEndpointSubsetsEqualIgnoreResourceVersion)', () => {
  const ref = (name: string, namespace: string, rv: string) => ({ kind: 'Pod', name, namespace, resourceVersion: rv });
  const es1: EndpointSubset = {
    addresses: [{ ip: '1.1.1.1', targetRef: ref('pod1-1', 'ns', '1') }],
    notReadyAddresses: [{ ip: '1.1.1.2', targetRef: ref('pod1-2', 'ns2', '2') }],
    ports: [{ port: 8081, protocol: 'TCP' }],
  };
  const es2: EndpointSubset = {
    addresses: [{ ip: '2.2.2.1', targetRef: ref('pod2-1', 'ns', '3') }],
    notReadyAddresses: [{ ip: '2.2.2.2', targetRef: ref('pod2-2', 'ns2', '4') }],
    ports: [{ port: 8082, protocol: 'TCP' }],
  };
  const mutated = (s: EndpointSubset, f: (c: EndpointSubset) => void) => {
    const c = structuredClone(s);
    f(c);
    return c;
  };
  it.each([
    ['subsets removed', [es1], false],
    ['ready pod IP changed', [mutated(es1, (s) => (s.addresses![0].ip = '1.1.1.10')), es2], false],
    ['not-ready pod IP changed', [es1, mutated(es2, (s) => (s.notReadyAddresses![0].ip = '2.2.2.10'))], false],
    [
      'pod resourceVersion changed',
      [es1, mutated(es2, (s) => (s.addresses![0].targetRef!.resourceVersion = '100'))],
      true,
    ],
    [
      'pod resourceVersion removed',
      [es1, mutated(es2, (s) => delete s.addresses![0].targetRef!.resourceVersion)],
      true,
    ],
    ['ports changed', [es1, mutated(es1, (s) => (s.ports![0].port = 8082))], false],
  ])('%s', (_n, other, want) => {
    expect(subsetsEqualIgnoringResourceVersion([es1, es2], other)).toBe(want);
  });
});
