/**
 * Deployments and ReplicaSets across their served versions (one apps/v1 storage): an object
 * written at one version reads at every other as upstream converts it — each version's own
 * defaults applied when it was written (apps/v1 and apps/v1beta2: 25%/25%, history 10, deadline
 * 600s, selector required; apps/v1beta1: history 2, selector from the template; extensions/v1beta1:
 * 1/1, history and deadline the max int32, selector from the template), the deprecated
 * `spec.rollbackTo` of apps/v1beta1 and extensions/v1beta1 shown as the
 * `deprecated.deployment.rollback.to` annotation at apps/v1 and apps/v1beta2 — and an update at
 * one version reads back at every other.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const NS = 'default';
const ROLLBACK_TO = 'deprecated.deployment.rollback.to';
const MAX_INT32 = 2147483647;

const DEPLOYMENT_VERSIONS = ['apps/v1', 'apps/v1beta2', 'apps/v1beta1', 'extensions/v1beta1'] as const;
const RS_VERSIONS = ['apps/v1', 'apps/v1beta2', 'extensions/v1beta1'] as const;
type Version = (typeof DEPLOYMENT_VERSIONS)[number];

const path = (version: string, plural: string, name = '') =>
  `/apis/${version}/namespaces/${NS}/${plural}${name ? `/${name}` : ''}`;
/** The versions that have spec.rollbackTo (and default the selector from the template). */
const isOld = (v: string) => v === 'apps/v1beta1' || v === 'extensions/v1beta1';

const template = (name: string) => ({
  metadata: { labels: { app: name } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

/** A Deployment as a client of `version` writes it: the older versions leave the selector to their defaults and ask for a rollback. */
function deploymentAt(version: Version, name: string) {
  const spec: Record<string, unknown> = { template: template(name) };
  if (isOld(version)) spec.rollbackTo = { revision: 3 };
  else spec.selector = { matchLabels: { app: name } };
  return { apiVersion: version, kind: 'Deployment', metadata: { name }, spec };
}

/** The spec fields `version`'s defaults give. */
function defaultsOf(version: Version) {
  const rolling = version === 'extensions/v1beta1' ? 1 : '25%';
  return {
    replicas: 1,
    selector: { matchLabels: { app: expect.any(String) } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: rolling, maxSurge: rolling } },
    revisionHistoryLimit: { 'apps/v1': 10, 'apps/v1beta2': 10, 'apps/v1beta1': 2, 'extensions/v1beta1': MAX_INT32 }[
      version
    ],
    progressDeadlineSeconds: version === 'extensions/v1beta1' ? MAX_INT32 : 600,
  };
}

const pairs = <T extends string>(versions: readonly T[]) =>
  versions.flatMap((from) => versions.filter((to) => to !== from).map((to) => [from, to] as const));

describe('a Deployment written at one version reads at another as upstream converts it', () => {
  it.each(pairs(DEPLOYMENT_VERSIONS))('written at %s, read at %s', async (from, to) => {
    const name = `conv-${from.replace(/\W/g, '')}-${to.replace(/\W/g, '')}`;
    const created = await srv.api('POST', path(from, 'deployments'), deploymentAt(from, name));
    expect(created.status, created.text).toBe(201);
    const read = await srv.api('GET', path(to, 'deployments', name));
    expect(read.status, read.text).toBe(200);
    const obj = read.body;
    expect(obj).toMatchObject({ apiVersion: to, kind: 'Deployment', spec: defaultsOf(from), status: {} });
    expect(obj.metadata).toMatchObject({ name, generation: 1, uid: created.body.metadata.uid });
    // The older versions default the object's labels from the template too.
    expect(obj.metadata.labels).toEqual(isOld(from) ? { app: name } : undefined);
    // spec.rollbackTo: a field of the older versions, an annotation of apps/v1 and apps/v1beta2.
    if (isOld(from) && isOld(to)) {
      expect(obj.spec.rollbackTo).toEqual({ revision: 3 });
      expect(obj.metadata.annotations).toBeUndefined();
    } else if (isOld(from)) {
      expect(obj.spec).not.toHaveProperty('rollbackTo');
      expect(obj.metadata.annotations).toEqual({ [ROLLBACK_TO]: '3' });
    } else {
      expect(obj.spec).not.toHaveProperty('rollbackTo');
      expect(obj.metadata.annotations).toBeUndefined();
    }
    // The pod template was defaulted once, at the version written.
    expect(obj.spec.template.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' });
  });
});

describe('an update at one version reads back at every other', () => {
  it.each(DEPLOYMENT_VERSIONS)('Deployment updated at %s', async (at) => {
    const name = `upd-${at.replace(/\W/g, '')}`;
    expect(
      (await srv.api('POST', path('apps/v1beta1', 'deployments'), deploymentAt('apps/v1beta1', name))).status,
    ).toBe(201);
    const current = (await srv.api('GET', path(at, 'deployments', name))).body;
    const { rollbackTo: _dropped, ...spec } = current.spec;
    const annotations = { ...(current.metadata.annotations ?? {}), 'example.com/by': at };
    // A write without rollbackTo (or its annotation) clears the rollback the older version asked for.
    delete annotations[ROLLBACK_TO];
    const put = await srv.api('PUT', path(at, 'deployments', name), {
      ...current,
      metadata: { ...current.metadata, annotations },
      spec: { ...spec, replicas: 4, minReadySeconds: 7 },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ apiVersion: at, metadata: { generation: 2 }, spec: { replicas: 4 } });
    for (const to of DEPLOYMENT_VERSIONS) {
      const got = (await srv.api('GET', path(to, 'deployments', name))).body;
      expect(got, to).toMatchObject({
        apiVersion: to,
        metadata: { annotations: { 'example.com/by': at }, generation: 2 },
        spec: { ...defaultsOf('apps/v1beta1'), replicas: 4, minReadySeconds: 7 },
      });
      expect(got.metadata.annotations, to).not.toHaveProperty(ROLLBACK_TO);
      expect(got.spec, to).not.toHaveProperty('rollbackTo');
    }
  });

  it.each(RS_VERSIONS)('ReplicaSet updated at %s', async (at) => {
    const name = `rsupd-${at.replace(/\W/g, '')}`;
    const created = await srv.api('POST', path('extensions/v1beta1', 'replicasets'), {
      metadata: { name },
      spec: { template: template(name) },
    });
    expect(created.status, created.text).toBe(201);
    const current = (await srv.api('GET', path(at, 'replicasets', name))).body;
    const put = await srv.api('PUT', path(at, 'replicasets', name), {
      ...current,
      spec: { ...current.spec, replicas: 3 },
    });
    expect(put.status, put.text).toBe(200);
    for (const to of RS_VERSIONS) {
      const got = (await srv.api('GET', path(to, 'replicasets', name))).body;
      expect(got, to).toMatchObject({
        apiVersion: to,
        kind: 'ReplicaSet',
        metadata: { labels: { app: name }, generation: 2 },
        spec: { replicas: 3, selector: { matchLabels: { app: name } } },
        status: { replicas: 0 },
      });
    }
  });
});

describe('a ReplicaSet written at one version reads at another', () => {
  it.each(pairs(RS_VERSIONS))('written at %s, read at %s', async (from, to) => {
    const name = `rsconv-${from.replace(/\W/g, '')}-${to.replace(/\W/g, '')}`;
    const spec: Record<string, unknown> = { template: template(name) };
    // Only extensions/v1beta1 defaults the selector (and the labels) from the template.
    if (from !== 'extensions/v1beta1') spec.selector = { matchLabels: { app: name } };
    const created = await srv.api('POST', path(from, 'replicasets'), { metadata: { name }, spec });
    expect(created.status, created.text).toBe(201);
    const read = await srv.api('GET', path(to, 'replicasets', name));
    expect(read.body).toMatchObject({
      apiVersion: to,
      kind: 'ReplicaSet',
      metadata: { name, generation: 1 },
      spec: { replicas: 1, selector: { matchLabels: { app: name } } },
      status: { replicas: 0 },
    });
    expect(read.body.metadata.labels).toEqual(from === 'extensions/v1beta1' ? { app: name } : undefined);
  });
});

describe('lists and watches at an older version', () => {
  it('lists and watches extensions/v1beta1 Deployments in their own form', async () => {
    const name = 'conv-watch';
    expect((await srv.api('POST', path('apps/v1', 'deployments'), deploymentAt('apps/v1', name))).status).toBe(201);
    const rollback = await srv.api('POST', path('apps/v1beta1', 'deployments', `${name}/rollback`), {
      name,
      rollbackTo: { revision: 5 },
    });
    expect(rollback.status, rollback.text).toBe(201);
    const list = await srv.api(
      'GET',
      `${path('extensions/v1beta1', 'deployments')}?fieldSelector=metadata.name%3D${name}`,
    );
    expect(list.body).toMatchObject({ apiVersion: 'extensions/v1beta1', kind: 'DeploymentList' });
    expect(list.body.items[0].spec.rollbackTo).toEqual({ revision: 5 });
    const watch = await srv.api(
      'GET',
      `${path('extensions/v1beta1', 'deployments')}?watch=true&timeoutSeconds=1&fieldSelector=metadata.name%3D${name}`,
    );
    const event = JSON.parse(watch.text.split('\n')[0]!);
    expect(event).toMatchObject({
      type: 'ADDED',
      object: { apiVersion: 'extensions/v1beta1', kind: 'Deployment', spec: { rollbackTo: { revision: 5 } } },
    });
    expect(event.object.metadata.annotations ?? {}).not.toHaveProperty(ROLLBACK_TO);
  });
});
