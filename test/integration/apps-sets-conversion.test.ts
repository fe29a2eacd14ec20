/**
 * StatefulSets, DaemonSets and ControllerRevisions read and written at every version they are
 * served at, over one apps/v1 storage, as upstream converts them: for each ordered pair of
 * versions, an object written at the first reads back at the second with the same fields
 * (apiVersion aside; apps/v1beta1's pointer status.observedGeneration; extensions/v1beta1's
 * spec.templateGeneration for apps/v1's `deprecated.daemonset.template.generation`); each
 * version's own defaults; and an update at one version seen at every other.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const NS = 'apps-sets-conv';
const ANNOTATION = 'deprecated.daemonset.template.generation';
const MERGE = { 'content-type': 'application/merge-patch+json' };

const path = (apiVersion: string, plural: string, name = '') =>
  `/apis/${apiVersion}/namespaces/${NS}/${plural}${name ? `/${name}` : ''}`;

/** Create in NS (made once), answering the created object. */
async function create(apiVersion: string, plural: string, body: object): Promise<any> {
  await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } });
  const res = await srv.api('POST', path(apiVersion, plural), body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function get(apiVersion: string, plural: string, name: string): Promise<any> {
  const res = await srv.api('GET', path(apiVersion, plural, name));
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** What two reads of one object share whatever the version: everything but apiVersion, selfLink and managedFields. */
function comparable(obj: any): any {
  const { apiVersion: _v, metadata, ...rest } = obj;
  const { selfLink: _s, managedFields: _m, ...meta } = metadata;
  return { ...rest, metadata: meta };
}

const template = (app: string) => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

const STS_VERSIONS = ['apps/v1', 'apps/v1beta2', 'apps/v1beta1'];
const DS_VERSIONS = ['apps/v1', 'apps/v1beta2', 'extensions/v1beta1'];
const CR_VERSIONS = ['apps/v1', 'apps/v1beta2', 'apps/v1beta1'];
const pairs = (versions: string[]) => versions.flatMap((a) => versions.map((b) => [a, b] as const));
const slug = (v: string) => v.replace(/[^a-z0-9]/g, '');

/** A StatefulSet as read at `to`, given its read at `from` (upstream's conversion through the internal version). */
function statefulSetAt(read: any, from: string, to: string): any {
  const out = comparable(read);
  if (from === 'apps/v1beta1' && to !== 'apps/v1beta1' && out.status?.observedGeneration === 0) {
    const { observedGeneration: _g, ...status } = out.status;
    out.status = status;
  }
  if (to === 'apps/v1beta1' && from !== 'apps/v1beta1' && out.status)
    out.status = { ...out.status, observedGeneration: out.status.observedGeneration ?? 0 };
  return out;
}

describe('StatefulSet across apps/v1, apps/v1beta2 and apps/v1beta1', () => {
  it.each(pairs(STS_VERSIONS))('written at %s reads back at %s with the same fields', async (from, to) => {
    const name = `sts-${slug(from)}-${slug(to)}`;
    const written = await create(from, 'statefulsets', {
      metadata: { name },
      spec: {
        replicas: 2,
        serviceName: name,
        selector: { matchLabels: { app: name } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1, maxUnavailable: '50%' } },
        podManagementPolicy: 'Parallel',
        template: template(name),
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      },
    });
    const read = await get(to, 'statefulsets', name);
    expect(read.apiVersion).toBe(to);
    expect(comparable(read)).toEqual(statefulSetAt(written, from, to));
    expect(read.spec.volumeClaimTemplates[0].status).toEqual({ phase: 'Pending' });
    if (to === 'apps/v1beta1') expect(read.status.observedGeneration).toBe(0);
    else expect(read.status).toEqual({ replicas: 0, availableReplicas: 0 });
  });

  it('defaults each version as upstream: RollingUpdate in apps/v1 and apps/v1beta2, OnDelete and the selector from the labels in apps/v1beta1', async () => {
    const minimal = (name: string, withSelector: boolean) => ({
      metadata: { name },
      spec: { ...(withSelector ? { selector: { matchLabels: { app: name } } } : {}), template: template(name) },
    });
    for (const v of ['apps/v1', 'apps/v1beta2']) {
      const created = await create(v, 'statefulsets', minimal(`sts-def-${slug(v)}`, true));
      expect(created.spec).toMatchObject({
        replicas: 1,
        podManagementPolicy: 'OrderedReady',
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } },
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
        revisionHistoryLimit: 10,
      });
      expect(created.spec.template.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' });
      expect(created.metadata.generation).toBe(1);
    }
    const name = 'sts-def-v1beta1';
    const beta = await create('apps/v1beta1', 'statefulsets', minimal(name, false));
    expect(beta.spec).toMatchObject({
      replicas: 1,
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'OnDelete' },
      selector: { matchLabels: { app: name } },
      revisionHistoryLimit: 10,
    });
    expect(beta.spec.updateStrategy.rollingUpdate).toBeUndefined();
    expect(beta.metadata.labels).toEqual({ app: name });
    expect((await get('apps/v1', 'statefulsets', name)).spec.updateStrategy).toEqual({ type: 'OnDelete' });
  });

  it('an update at one version reads back at every other, moving generation once', async () => {
    const name = 'sts-upd';
    await create('apps/v1', 'statefulsets', {
      metadata: { name },
      spec: { selector: { matchLabels: { app: name } }, template: template(name) },
    });
    for (const [i, v] of STS_VERSIONS.entries()) {
      const res = await srv.api('PATCH', path(v, 'statefulsets', name), { spec: { replicas: 10 + i } }, MERGE);
      expect(res.status, res.text).toBe(200);
      for (const w of STS_VERSIONS) {
        const read = await get(w, 'statefulsets', name);
        expect([read.apiVersion, read.spec.replicas, read.metadata.generation]).toEqual([w, 10 + i, 2 + i]);
      }
    }
  });

  it('answers each version’s Scale: autoscaling/v1 for apps/v1, its own for the betas', async () => {
    const name = 'sts-scale';
    await create('apps/v1', 'statefulsets', {
      metadata: { name },
      spec: {
        selector: { matchLabels: { app: name }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['x'] }] },
        template: template(name),
      },
    });
    const scale = async (v: string) => (await srv.api('GET', `${path(v, 'statefulsets', name)}/scale`)).body;
    expect(await scale('apps/v1')).toMatchObject({
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      spec: { replicas: 1 },
      status: { replicas: 0, selector: `app=${name},tier notin (x)` },
    });
    for (const v of ['apps/v1beta2', 'apps/v1beta1']) {
      const view = await scale(v);
      expect(view).toMatchObject({
        apiVersion: v,
        kind: 'Scale',
        status: { targetSelector: `app=${name},tier notin (x)` },
      });
      expect(view.status.selector).toBeUndefined();
    }
    const put = await srv.api('PUT', `${path('apps/v1beta1', 'statefulsets', name)}/scale`, {
      ...(await scale('apps/v1beta1')),
      spec: { replicas: 4 },
    });
    expect(put.status, put.text).toBe(200);
    expect((await get('apps/v1beta2', 'statefulsets', name)).spec.replicas).toBe(4);
  });
});

/** A DaemonSet as read at `to`, given its read at `from`: extensions/v1beta1's templateGeneration is apps' annotation. */
function daemonSetAt(read: any, from: string, to: string): any {
  const out = comparable(read);
  const ext = (v: string) => v === 'extensions/v1beta1';
  if (ext(from) && !ext(to)) {
    const { templateGeneration, ...spec } = out.spec;
    out.spec = spec;
    out.metadata = {
      ...out.metadata,
      annotations: { ...out.metadata.annotations, [ANNOTATION]: String(templateGeneration ?? 0) },
    };
  }
  if (!ext(from) && ext(to)) {
    const { [ANNOTATION]: generation, ...annotations } = out.metadata.annotations;
    out.metadata = { ...out.metadata, annotations };
    if (!Object.keys(annotations).length) delete out.metadata.annotations;
    out.spec = { ...out.spec, templateGeneration: Number(generation) };
  }
  return out;
}

describe('DaemonSet across apps/v1, apps/v1beta2 and extensions/v1beta1', () => {
  it.each(pairs(DS_VERSIONS))('written at %s reads back at %s with the same fields', async (from, to) => {
    const name = `ds-${slug(from)}-${slug(to)}`;
    const written = await create(from, 'daemonsets', {
      metadata: { name, annotations: { 'example.com/kept': 'yes' } },
      spec: {
        selector: { matchLabels: { app: name } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '10%' } },
        template: template(name),
      },
    });
    const read = await get(to, 'daemonsets', name);
    expect(read.apiVersion).toBe(to);
    expect(comparable(read)).toEqual(daemonSetAt(written, from, to));
    if (to === 'extensions/v1beta1') {
      expect(read.spec.templateGeneration).toBe(1);
      expect(read.metadata.annotations).toEqual({ 'example.com/kept': 'yes' });
    } else expect(read.metadata.annotations).toEqual({ 'example.com/kept': 'yes', [ANNOTATION]: '1' });
  });

  it('defaults each version as upstream: RollingUpdate (1 unavailable, 0 surge), OnDelete and the selector from the labels in extensions/v1beta1', async () => {
    for (const v of ['apps/v1', 'apps/v1beta2']) {
      const name = `ds-def-${slug(v)}`;
      const created = await create(v, 'daemonsets', {
        metadata: { name },
        spec: { selector: { matchLabels: { app: name } }, template: template(name) },
      });
      expect(created.spec).toMatchObject({
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
        revisionHistoryLimit: 10,
      });
      expect(created.status).toEqual({
        currentNumberScheduled: 0,
        numberMisscheduled: 0,
        desiredNumberScheduled: 0,
        numberReady: 0,
      });
    }
    const name = 'ds-def-ext';
    const ext = await create('extensions/v1beta1', 'daemonsets', {
      metadata: { name },
      spec: { template: template(name) },
    });
    expect(ext.spec).toMatchObject({
      selector: { matchLabels: { app: name } },
      updateStrategy: { type: 'OnDelete' },
      revisionHistoryLimit: 10,
      templateGeneration: 1,
    });
    expect(ext.metadata.labels).toEqual({ app: name });
  });

  it('counts template generations as upstream, whatever a client sends, and refuses an annotation that is not a number', async () => {
    const name = 'ds-gen';
    await create('apps/v1', 'daemonsets', {
      metadata: { name, annotations: { [ANNOTATION]: '7' } },
      spec: { selector: { matchLabels: { app: name } }, template: template(name) },
    });
    expect((await get('extensions/v1beta1', 'daemonsets', name)).spec.templateGeneration).toBe(7);
    // A spec change that is not the template: generation moves, the template generation does not.
    let res = await srv.api('PATCH', path('apps/v1', 'daemonsets', name), { spec: { minReadySeconds: 3 } }, MERGE);
    expect(res.body.metadata).toMatchObject({ generation: 2, annotations: { [ANNOTATION]: '7' } });
    // A template change through extensions/v1beta1 that also sets templateGeneration: the server's count wins.
    res = await srv.api(
      'PATCH',
      path('extensions/v1beta1', 'daemonsets', name),
      { spec: { templateGeneration: 100, template: { metadata: { labels: { app: name, v: '2' } } } } },
      MERGE,
    );
    expect(res.status, res.text).toBe(200);
    expect([res.body.spec.templateGeneration, res.body.metadata.generation]).toEqual([8, 3]);
    // The annotation is the server's: an apps/v1 write that changes it keeps the stored count.
    res = await srv.api(
      'PATCH',
      path('apps/v1', 'daemonsets', name),
      { metadata: { annotations: { [ANNOTATION]: '2' } } },
      MERGE,
    );
    expect(res.body.metadata.annotations[ANNOTATION]).toBe('8');
    res = await srv.api(
      'PATCH',
      path('apps/v1', 'daemonsets', name),
      { metadata: { annotations: { [ANNOTATION]: 'x' } } },
      MERGE,
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('strconv.ParseInt: parsing "x": invalid syntax');
  });

  it('keeps the selector immutable in apps/v1 and apps/v1beta2, not in extensions/v1beta1', async () => {
    const name = 'ds-sel';
    await create('apps/v1', 'daemonsets', {
      metadata: { name },
      spec: { selector: { matchLabels: { app: name } }, template: template(name) },
    });
    const change = {
      spec: {
        selector: { matchLabels: { app: name, v: '2' } },
        template: { metadata: { labels: { app: name, v: '2' } } },
      },
    };
    for (const v of ['apps/v1', 'apps/v1beta2']) {
      const res = await srv.api('PATCH', path(v, 'daemonsets', name), change, MERGE);
      expect(res.status, res.text).toBe(422);
      expect(res.body.details.causes).toContainEqual(
        expect.objectContaining({ field: 'spec.selector', reason: 'FieldValueInvalid' }),
      );
    }
    const res = await srv.api('PATCH', path('extensions/v1beta1', 'daemonsets', name), change, MERGE);
    expect(res.status, res.text).toBe(200);
    expect((await get('apps/v1', 'daemonsets', name)).spec.selector.matchLabels).toEqual({ app: name, v: '2' });
  });
});

describe('ControllerRevision across apps/v1, apps/v1beta2 and apps/v1beta1', () => {
  it.each(pairs(CR_VERSIONS))('written at %s reads back at %s unchanged', async (from, to) => {
    const name = `cr-${slug(from)}-${slug(to)}`;
    const written = await create(from, 'controllerrevisions', {
      metadata: { name },
      data: { spec: { template: { metadata: { labels: { app: 'x' } } } } },
      revision: 3,
    });
    const read = await get(to, 'controllerrevisions', name);
    expect(read.apiVersion).toBe(to);
    expect(comparable(read)).toEqual(comparable(written));
  });
});
