/**
 * The horizontal pod autoscaler (src/controllers/podautoscaler/) on a server with 2 simulated
 * nodes, seen through the API: an HPA with minReplicas 3 over a Deployment of 1 replica scales
 * it to 3 through its `scale` subresource without any metrics; with no metrics API registered
 * the HPA then reports ScalingActive False `FailedGetResourceMetric` with upstream's message;
 * once a metrics server is registered (APIService `v1beta1.metrics.k8s.io` Available, its
 * Service and EndpointSlice) and reports the pods at 200% of their cpu request, the HPA scales
 * the Deployment up to maxReplicas and reports the utilization in status.currentMetrics.
 */
import { networkInterfaces } from 'node:os';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HorizontalController } from '../../src/controllers/podautoscaler/controller.js';
import { startMetricsServer, type MetricsServer } from '../helpers/metrics-server.js';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer({ simulatedNodes: 2, controllers: ['*', '-horizontalpodautoscaling'] });
const NS = 'hpa';
const DEPLOY = `/apis/apps/v1/namespaces/${NS}/deployments`;
const HPA = `/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers`;
let controller: HorizontalController;
let metrics: MetricsServer | undefined;

beforeAll(async () => {
  expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  controller = new HorizontalController(srv.running.deps.registry, pino({ level: 'silent' }), { syncPeriodMs: 300 });
  controller.start();
});

afterAll(async () => {
  controller?.stop();
  await metrics?.close();
});

/** Poll `read` every 100 ms until `done` holds (15 s at most); answers the last value. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const replicas = async () => (await srv.api('GET', `${DEPLOY}/web`)).body.spec.replicas as number;
const hpaStatus = async () => (await srv.api('GET', `${HPA}/web`)).body.status;
const condition = (status: any, type: string) => status?.conditions?.find((c: any) => c.type === type);

describe('horizontal pod autoscaler with simulated nodes', () => {
  it('brings a Deployment up to minReplicas without metrics', async () => {
    const deployment = {
      metadata: { name: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }] },
        },
      },
    };
    expect((await srv.api('POST', DEPLOY, deployment)).status).toBe(201);
    const hpa = {
      metadata: { name: 'web' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 3,
        maxReplicas: 5,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
        ],
      },
    };
    expect((await srv.api('POST', HPA, hpa)).status).toBe(201);
    await until(replicas, (n) => n === 3, 'the Deployment scaled to minReplicas');
    const events = await until(
      async () =>
        (await srv.api('GET', `/api/v1/namespaces/${NS}/events?fieldSelector=reason%3DSuccessfulRescale`)).body
          .items as any[],
      (items) => items.length > 0,
      'the SuccessfulRescale event',
    );
    expect(events[0].message).toBe('New size: 3; reason: Current number of replicas below Spec.MinReplicas');
    expect(events[0].involvedObject).toMatchObject({ kind: 'HorizontalPodAutoscaler', name: 'web' });
  });

  it('reports FailedGetResourceMetric while no metrics API is registered', async () => {
    const status = await until(
      hpaStatus,
      (s) => condition(s, 'ScalingActive')?.status === 'False',
      'ScalingActive False',
    );
    expect(condition(status, 'ScalingActive')).toMatchObject({
      reason: 'FailedGetResourceMetric',
      message:
        'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)',
    });
    expect(condition(status, 'AbleToScale')).toMatchObject({ status: 'True', reason: 'SucceededGetScale' });
    expect(status.currentReplicas).toBe(3);
    expect(status.currentMetrics).toEqual([{ type: '' }]);
  });

  it('scales up on high utilization reported by a registered metrics server', async () => {
    const ip = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    expect(ip, 'a non-loopback IPv4 address for the EndpointSlice').toBeDefined();
    metrics = await startMetricsServer('metrics-server.kube-system.svc', async (ns, selector) => {
      const pods = (await srv.api('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(selector)}`))
        .body.items as any[];
      return pods
        .filter((p) => p.status?.phase === 'Running')
        .map((p) => ({
          metadata: { name: p.metadata.name, namespace: ns },
          timestamp: new Date().toISOString(),
          window: '0s',
          containers: [{ name: 'c', usage: { cpu: '200m', memory: '10Mi' } }],
        }));
    });
    const svc = await srv.api('POST', '/api/v1/namespaces/kube-system/services', {
      metadata: { name: 'metrics-server' },
      spec: { ports: [{ name: 'https', port: 443, targetPort: metrics.port }] },
    });
    expect(svc.status, svc.text).toBe(201);
    const slice = await srv.api('POST', '/apis/discovery.k8s.io/v1/namespaces/kube-system/endpointslices', {
      metadata: { name: 'metrics-server-1', labels: { 'kubernetes.io/service-name': 'metrics-server' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: [ip], conditions: { ready: true } }],
      ports: [{ name: 'https', port: metrics.port, protocol: 'TCP' }],
    });
    expect(slice.status, slice.text).toBe(201);
    const apiService = await srv.api('POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
      metadata: { name: 'v1beta1.metrics.k8s.io' },
      spec: {
        group: 'metrics.k8s.io',
        version: 'v1beta1',
        service: { namespace: 'kube-system', name: 'metrics-server', port: 443 },
        caBundle: metrics.caBundle,
        groupPriorityMinimum: 100,
        versionPriority: 100,
      },
    });
    expect(apiService.status, apiService.text).toBe(201);
    // No availability controller probes remote APIServices here: report it Available as one would.
    const available = await srv.api(
      'PUT',
      '/apis/apiregistration.k8s.io/v1/apiservices/v1beta1.metrics.k8s.io/status',
      {
        ...apiService.body,
        status: {
          conditions: [
            {
              type: 'Available',
              status: 'True',
              reason: 'Passed',
              message: 'all checks passed',
              lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
            },
          ],
        },
      },
    );
    expect(available.status, available.text).toBe(200);

    await until(replicas, (n) => n === 5, 'the Deployment scaled up to maxReplicas');
    const status = await until(
      hpaStatus,
      (s) => s?.desiredReplicas === 5 && condition(s, 'ScalingActive')?.status === 'True',
      'the HPA status',
    );
    expect(condition(status, 'ScalingActive')).toMatchObject({ reason: 'ValidMetricFound' });
    expect(status.currentMetrics[0].resource.current.averageUtilization).toBe(200);
    expect(metrics.asked).toContain('app=web');
  });
});
