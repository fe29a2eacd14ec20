/**
 * LimitRanger admission as a user sees it: a namespace's LimitRange fills in container
 * defaults (and says so in an annotation) and refuses containers, pods and claims outside its
 * bounds with upstream's messages.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const NS = 'limits';

function pod(name: string, resources?: object, extra: object = {}) {
  return {
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'nginx', ...(resources ? { resources } : {}) }], ...extra },
  };
}

describe('LimitRanger', () => {
  beforeAll(async () => {
    await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } });
    const lr = {
      metadata: { name: 'lr' },
      spec: {
        limits: [
          {
            type: 'Container',
            default: { cpu: '300m', memory: '128Mi' },
            defaultRequest: { cpu: '200m' },
            max: { cpu: '1' },
            min: { cpu: '100m' },
            maxLimitRequestRatio: { cpu: '4' },
          },
          { type: 'Pod', max: { memory: '1Gi' } },
          { type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '5Gi' } },
        ],
      },
    };
    expect((await srv.api('POST', `/api/v1/namespaces/${NS}/limitranges`, lr)).status).toBe(201);
  });

  it('fills container defaults and records them', async () => {
    const res = await srv.api('POST', `/api/v1/namespaces/${NS}/pods`, pod('defaults'));
    expect(res.status).toBe(201);
    expect(res.body.spec.containers[0].resources).toEqual({
      limits: { cpu: '300m', memory: '128Mi' },
      requests: { cpu: '200m', memory: '128Mi' },
    });
    expect(res.body.metadata.annotations['kubernetes.io/limit-ranger']).toBe(
      'LimitRanger plugin set: cpu, memory request for container c; cpu, memory limit for container c',
    );
  });

  it('keeps what the pod states', async () => {
    const res = await srv.api(
      'POST',
      `/api/v1/namespaces/${NS}/pods`,
      pod('stated', { requests: { cpu: '500m', memory: '64Mi' }, limits: { cpu: '500m', memory: '64Mi' } }),
    );
    expect(res.status).toBe(201);
    expect(res.body.spec.containers[0].resources).toEqual({
      requests: { cpu: '500m', memory: '64Mi' },
      limits: { cpu: '500m', memory: '64Mi' },
    });
    expect(res.body.metadata.annotations?.['kubernetes.io/limit-ranger']).toBeUndefined();
  });

  it.each([
    ['over the container max', { limits: { cpu: '2' } }, 'maximum cpu usage per Container is 1, but limit is 2.'],
    [
      'under the container min',
      { requests: { cpu: '50m' }, limits: { cpu: '50m' } },
      'minimum cpu usage per Container is 100m, but request is 50m.',
    ],
    [
      'over the ratio',
      { requests: { cpu: '100m' }, limits: { cpu: '500m' } },
      'cpu max limit to request ratio per Container is 4, but provided ratio is 5.000000.',
    ],
    [
      'over the pod max',
      { limits: { memory: '2Gi', cpu: '300m' } },
      'maximum memory usage per Pod is 1Gi, but limit is 2Gi.',
    ],
  ])('refuses a pod %s with 403 and upstream message', async (_what, resources, message) => {
    const res = await srv.api('POST', `/api/v1/namespaces/${NS}/pods`, pod('bad', resources));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      message: `pods "bad" is forbidden: ${message}`,
    });
    expect((await srv.api('GET', `/api/v1/namespaces/${NS}/pods/bad`)).status).toBe(404);
  });

  it('bounds claims on create and update', async () => {
    const claim = (name: string, storage: string) => ({
      metadata: { name },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } },
    });
    const small = await srv.api('POST', `/api/v1/namespaces/${NS}/persistentvolumeclaims`, claim('small', '500Mi'));
    expect(small.status).toBe(403);
    expect(small.body.message).toBe(
      'persistentvolumeclaims "small" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi.',
    );
    const big = await srv.api('POST', `/api/v1/namespaces/${NS}/persistentvolumeclaims`, claim('big', '10Gi'));
    expect(big.body.message).toBe(
      'persistentvolumeclaims "big" is forbidden: maximum storage usage per PersistentVolumeClaim is 5Gi, but request is 10Gi.',
    );
    expect((await srv.api('POST', `/api/v1/namespaces/${NS}/persistentvolumeclaims`, claim('ok', '2Gi'))).status).toBe(
      201,
    );
  });

  it('leaves namespaces without a LimitRange alone', async () => {
    const res = await srv.api('POST', '/api/v1/namespaces/default/pods', pod('free'));
    expect(res.status).toBe(201);
    expect(res.body.spec.containers[0].resources ?? {}).toEqual({});
  });
});
