/** Upstream defaults per kind, and the Secret / ConfigMap data rules, as a client reads them back. */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();

const ns = '/api/v1/namespaces/default';

describe('defaults', () => {
  it('defaults a Pod as upstream 1.10 does', async () => {
    const res = await srv.api('POST', `${ns}/pods`, {
      metadata: { name: 'defaulted' },
      spec: {
        containers: [
          {
            name: 'latest',
            image: 'nginx',
            ports: [{ containerPort: 80 }],
            livenessProbe: { httpGet: { port: 80 } },
            env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
          },
          { name: 'pinned', image: 'registry.local:5000/app:1.2', resources: { limits: { cpu: '1', memory: '1Gi' } } },
        ],
        volumes: [
          { name: 's', secret: { secretName: 'x' } },
          { name: 'c', configMap: { name: 'y' } },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    const spec = res.body.spec;
    expect(spec).toMatchObject({
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      schedulerName: 'default-scheduler',
      securityContext: {},
    });
    expect(spec.containers[0]).toMatchObject({
      imagePullPolicy: 'Always',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      resources: {},
      ports: [{ containerPort: 80, protocol: 'TCP' }],
      livenessProbe: {
        httpGet: { port: 80, path: '/', scheme: 'HTTP' },
        timeoutSeconds: 1,
        periodSeconds: 10,
        successThreshold: 1,
        failureThreshold: 3,
      },
      env: [{ valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }],
    });
    expect(spec.containers[1]).toMatchObject({
      imagePullPolicy: 'IfNotPresent',
      resources: { requests: { cpu: '1', memory: '1Gi' } },
    });
    expect(spec.volumes.map((v: any) => (v.secret ?? v.configMap).defaultMode)).toEqual([420, 420]);
    expect(res.body.status).toEqual({ phase: 'Pending', qosClass: 'Burstable' });
  });

  it('defaults Services, ReplicationControllers, PersistentVolumes, Secrets and LimitRanges', async () => {
    const svc = await srv.api('POST', `${ns}/services`, {
      metadata: { name: 'svc' },
      spec: { type: 'NodePort', ports: [{ port: 8080 }], sessionAffinity: 'ClientIP' },
    });
    expect(svc.body.spec).toMatchObject({
      type: 'NodePort',
      externalTrafficPolicy: 'Cluster',
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
      ports: [{ port: 8080, protocol: 'TCP', targetPort: 8080 }],
    });
    const rc = await srv.api('POST', `${ns}/replicationcontrollers`, {
      metadata: { name: 'rc' },
      spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i:1' }] } } },
    });
    expect(rc.body.spec).toMatchObject({
      replicas: 1,
      selector: { app: 'web' },
      template: { spec: { restartPolicy: 'Always' } },
    });
    expect(rc.body.metadata).toMatchObject({ labels: { app: 'web' }, generation: 1 });
    const pv = await srv.api('POST', '/api/v1/persistentvolumes', {
      metadata: { name: 'pv' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/x' } },
    });
    expect(pv.body.spec.persistentVolumeReclaimPolicy).toBe('Retain');
    expect(pv.body.status).toEqual({ phase: 'Pending' });
    const secret = await srv.api('POST', `${ns}/secrets`, {
      metadata: { name: 'opaque' },
      stringData: { user: 'admin' },
    });
    expect(secret.body).toMatchObject({ type: 'Opaque', data: { user: Buffer.from('admin').toString('base64') } });
    expect(secret.body.stringData).toBeUndefined();
    const lr = await srv.api('POST', `${ns}/limitranges`, {
      metadata: { name: 'lr' },
      spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' } }] },
    });
    expect(lr.body.spec.limits[0]).toMatchObject({
      default: { cpu: '2' },
      defaultRequest: { cpu: '2', memory: '64Mi' },
    });
  });
});

describe('secret and config map data', () => {
  it('rejects data over 1 MiB, bad keys and non-base64 secret values with 422', async () => {
    const big = 'x'.repeat(600 * 1024);
    const cm = await srv.api('POST', `${ns}/configmaps`, { metadata: { name: 'big' }, data: { a: big, b: big } });
    expect(cm.status).toBe(422);
    expect(cm.body.details.causes).toEqual([
      expect.objectContaining({
        reason: 'FieldValueTooLong',
        message: 'Too long: must have at most 1048576 characters',
      }),
    ]);
    const secret = await srv.api('POST', `${ns}/secrets`, {
      metadata: { name: 'big' },
      data: { a: Buffer.from(big + big).toString('base64') },
    });
    expect(secret.status).toBe(422);
    expect(secret.body.message).toContain('data: Too long: must have at most 1048576 characters');
    const keys = await srv.api('POST', `${ns}/configmaps`, {
      metadata: { name: 'keys' },
      data: { 'bad key': 'v', '..x': 'v' },
    });
    expect(keys.body.details.causes.map((c: any) => c.field)).toEqual(['data[bad key]', 'data[..x]']);
    const notB64 = await srv.api('POST', `${ns}/secrets`, { metadata: { name: 'b64' }, data: { k: 'not base64!' } });
    expect(notB64.status).toBe(422);
    expect(notB64.body.details.causes[0]).toMatchObject({ field: 'data[k]', reason: 'FieldValueInvalid' });
  });

  it('keeps a secret type immutable and service account token secrets typed', async () => {
    const created = await srv.api('POST', `${ns}/secrets`, {
      metadata: { name: 'sa-token', annotations: { 'kubernetes.io/service-account.name': 'default' } },
      type: 'kubernetes.io/service-account-token',
    });
    expect(created.status, created.text).toBe(201);
    const changed = await srv.api(
      'PATCH',
      `${ns}/secrets/sa-token`,
      { type: 'Opaque' },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(changed.status).toBe(422);
    expect(changed.body.details.causes[0]).toMatchObject({
      field: 'type',
      message: expect.stringContaining('field is immutable'),
    });
    const untyped = await srv.api('POST', `${ns}/secrets`, {
      metadata: { name: 'sa-missing' },
      type: 'kubernetes.io/service-account-token',
    });
    expect(untyped.status).toBe(422);
  });
});

describe('replication controller scale', () => {
  it('serves an autoscaling/v1 Scale that reads and writes spec.replicas and bumps generation', async () => {
    const rcPath = `${ns}/replicationcontrollers`;
    await srv.api('POST', rcPath, {
      metadata: { name: 'scaled' },
      spec: {
        replicas: 1,
        selector: { tier: 'web', app: 'x' },
        template: {
          metadata: { labels: { tier: 'web', app: 'x' } },
          spec: { containers: [{ name: 'c', image: 'i' }] },
        },
      },
    });
    const scale = await srv.api('GET', `${rcPath}/scaled/scale`);
    expect(scale.body).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'scaled', namespace: 'default', selfLink: `${rcPath}/scaled/scale` },
      spec: { replicas: 1 },
      status: { replicas: 0, selector: 'app=x,tier=web' },
    });
    const patched = await srv.api(
      'PATCH',
      `${rcPath}/scaled/scale`,
      { spec: { replicas: 4 } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(patched.body.spec.replicas).toBe(4);
    const put = await srv.api('PUT', `${rcPath}/scaled/scale`, {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'scaled' },
      spec: { replicas: 2 },
    });
    expect(put.status, put.text).toBe(200);
    const rc = await srv.api('GET', `${rcPath}/scaled`);
    expect(rc.body.spec.replicas).toBe(2);
    expect(rc.body.metadata.generation).toBe(3);
    const negative = await srv.api(
      'PATCH',
      `${rcPath}/scaled/scale`,
      { spec: { replicas: -1 } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(negative.status).toBe(422);
    expect(negative.body.details.causes[0]).toMatchObject({ field: 'spec.replicas' });
    const discovery = await srv.api('GET', '/api/v1');
    expect(discovery.body.resources.find((r: any) => r.name === 'replicationcontrollers/scale')).toMatchObject({
      kind: 'Scale',
      group: 'autoscaling',
      version: 'v1',
      verbs: ['get', 'patch', 'update'],
    });
  });
});
