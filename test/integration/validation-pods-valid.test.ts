/**
 * Valid pods, pod templates and replication controllers using most of the pod spec pass the
 * upstream 1.10 rules (docs/validation/pods.md), with upstream's defaults applied first.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const ns = '/api/v1/namespaces/default';
const PATHS = { pod: `${ns}/pods`, podtemplate: `${ns}/podtemplates`, rc: `${ns}/replicationcontrollers` };
const c = (extra: object = {}) => ({ name: 'c', image: 'nginx', ...extra });
const pod = (spec: object = {}, metadata: object = {}) => ({
  metadata: { name: 'v', ...metadata },
  spec: { containers: [c()], ...spec },
});

describe('valid objects pass', () => {
  const full = {
    metadata: {
      name: 'full',
      annotations: {
        'seccomp.security.alpha.kubernetes.io/pod': 'docker/default',
        'container.apparmor.security.beta.kubernetes.io/web': 'runtime/default',
      },
    },
    spec: {
      hostname: 'web-0',
      subdomain: 'web',
      hostAliases: [
        { ip: '10.0.0.1', hostnames: ['db.local'] },
        { ip: '::1', hostnames: ['v6.local'] },
      ],
      dnsPolicy: 'None',
      dnsConfig: {
        nameservers: ['8.8.8.8', '2001:db8::1'],
        searches: ['svc.cluster.local'],
        options: [{ name: 'ndots', value: '2' }],
      },
      nodeSelector: { 'kubernetes.io/hostname': 'node-1', disk: 'ssd' },
      securityContext: { fsGroup: 2000, runAsUser: 1000, supplementalGroups: [3000] },
      tolerations: [
        { operator: 'Exists' },
        { key: 'k', operator: 'Equal', value: 'v', effect: 'NoExecute', tolerationSeconds: 30 },
      ],
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {
                matchExpressions: [
                  { key: 'zone', operator: 'In', values: ['a'] },
                  { key: 'gpu', operator: 'Gt', values: ['1'] },
                ],
              },
            ],
          },
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 100, preference: { matchExpressions: [{ key: 'ssd', operator: 'Exists' }] } },
          ],
        },
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 1,
              podAffinityTerm: {
                labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] },
                namespaces: ['default'],
                topologyKey: 'kubernetes.io/hostname',
              },
            },
          ],
        },
      },
      volumes: [
        { name: 'data' },
        { name: 'cfg', configMap: { name: 'cfg', items: [{ key: 'a.conf', path: 'conf/a.conf', mode: 0o600 }] } },
        { name: 'sec', secret: { secretName: 'sec', defaultMode: 0o400 } },
        {
          name: 'info',
          downwardAPI: {
            items: [
              { path: 'labels', fieldRef: { fieldPath: "metadata.labels['app']" } },
              { path: 'cpu', resourceFieldRef: { containerName: 'web', resource: 'limits.cpu', divisor: '1m' } },
            ],
          },
        },
        {
          name: 'all',
          projected: {
            sources: [
              { secret: { name: 's', items: [{ key: 'k', path: 's' }] } },
              { configMap: { name: 'c' } },
              { downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } },
            ],
          },
        },
        { name: 'host', hostPath: { path: '/var/log', type: 'Directory' } },
        { name: 'nfs', nfs: { server: 'nfs.local', path: '/exports' } },
        { name: 'claim', persistentVolumeClaim: { claimName: 'data' } },
      ],
      initContainers: [{ name: 'init', image: 'busybox', command: ['sh', '-c', 'true'] }],
      containers: [
        {
          name: 'web',
          image: 'nginx:1.25',
          ports: [
            { name: 'http', containerPort: 80 },
            { containerPort: 8443, hostPort: 8443, protocol: 'UDP' },
          ],
          env: [
            { name: 'A', value: 'x' },
            { name: 'my.env-name', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
            { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
            { name: 'K', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'a.conf' } } },
            { name: 'S', valueFrom: { secretKeyRef: { name: 'sec', key: 'password' } } },
          ],
          envFrom: [{ prefix: 'CFG_', configMapRef: { name: 'cfg' } }, { secretRef: { name: 'sec' } }],
          resources: {
            limits: { cpu: '1', memory: '1Gi', 'example.com/gpu': '1' },
            requests: { cpu: '500m', memory: '512Mi' },
          },
          volumeMounts: [
            { name: 'data', mountPath: '/data', subPath: 'web' },
            { name: 'cfg', mountPath: '/etc/cfg', readOnly: true, mountPropagation: 'HostToContainer' },
            { name: 'host', mountPath: '/host' },
          ],
          livenessProbe: {
            httpGet: { path: '/healthz', port: 'http', httpHeaders: [{ name: 'X-Probe', value: '1' }] },
            initialDelaySeconds: 5,
          },
          readinessProbe: { tcpSocket: { port: 80 }, periodSeconds: 3 },
          lifecycle: { postStart: { exec: { command: ['true'] } }, preStop: { httpGet: { port: 80 } } },
          securityContext: { runAsUser: 0, privileged: true, capabilities: { add: ['NET_ADMIN'] } },
          terminationMessagePolicy: 'FallbackToLogsOnError',
        },
      ],
    },
  };

  it('a pod using most of the spec is created, and updated with a new image', async () => {
    const res = await srv.api('POST', PATHS.pod, full);
    expect(res.status, res.text).toBe(201);
    expect(res.body.spec.volumes[0]).toEqual({ name: 'data', emptyDir: {} }); // upstream SetDefaults_Volume
    res.body.spec.containers[0].image = 'nginx:1.26';
    const upd = await srv.api('PUT', `${PATHS.pod}/full`, res.body);
    expect(upd.status, upd.text).toBe(200);
  });

  it('a host-network pod gets host ports from its container ports (upstream defaultHostNetworkPorts)', async () => {
    const res = await srv.api(
      'POST',
      PATHS.pod,
      pod({ hostNetwork: true, containers: [c({ ports: [{ containerPort: 9100 }] })] }, { name: 'hostnet' }),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.spec.containers[0].ports[0].hostPort).toBe(9100);
  });

  it('the same spec in a PodTemplate and an RC is created', async () => {
    const { dnsPolicy: _d, dnsConfig: _c, ...spec } = full.spec;
    const tpl = await srv.api('POST', PATHS.podtemplate, {
      metadata: { name: 'full' },
      template: { metadata: { labels: { app: 'web' } }, spec },
    });
    expect(tpl.status, tpl.text).toBe(201);
    const ctl = await srv.api('POST', PATHS.rc, {
      metadata: { name: 'full' },
      spec: { replicas: 2, template: { metadata: { labels: { app: 'web' } }, spec } },
    });
    expect(ctl.status, ctl.text).toBe(201);
    expect(ctl.body.spec.selector).toEqual({ app: 'web' });
  });
});
