// getNewReplicaSet (upstream sync.go): the new ReplicaSet's name, labels, selector and
// annotations; a hash collision bumping collisionCount; a failed create reported in Progressing.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors/api-error.js';
import { FakeClient, newDeployment, rs, syncContext } from '../../../test/helpers/deployment-fixtures.js';
import { computeHash } from './hash.js';
import { getNewReplicaSet } from './new-replica-set.js';
import type { Deployment } from './types.js';

const OLD = '2016-05-20T01:00:00Z';

describe('getNewReplicaSet', () => {
  it('creates <name>-<hash> with the hash label on itself, its template and selector, and revision 1', async () => {
    const dep = newDeployment('web', 3, {
      maxSurge: 1,
      maxUnavailable: 0,
      selector: { app: 'web' },
      progressDeadlineSeconds: 600,
    });
    const client = new FakeClient();
    const created = await getNewReplicaSet(syncContext(client), dep, [], [], true);
    const hash = computeHash(newDeployment('web', 3, { selector: { app: 'web' } }).spec!.template);
    expect(created?.metadata.name).toBe(`web-${hash}`);
    expect(created?.metadata.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(created?.spec?.selector?.matchLabels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(created?.spec?.template?.metadata?.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(created?.spec?.replicas).toBe(3);
    expect(created?.metadata.annotations).toMatchObject({
      'deployment.kubernetes.io/revision': '1',
      'deployment.kubernetes.io/desired-replicas': '3',
      'deployment.kubernetes.io/max-replicas': '4',
    });
    expect(created?.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'Deployment',
      name: 'web',
      controller: true,
      blockOwnerDeletion: true,
    });
    const status = client.actions.find((a) => a.resource === 'deployments/status')!.object as Deployment;
    expect(status.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    expect(status.status?.conditions?.[0]).toMatchObject({
      type: 'Progressing',
      status: 'True',
      reason: 'NewReplicaSetCreated',
      message: `Created new replica set "web-${hash}"`,
    });
  });

  it("bumps collisionCount when the name is taken by a ReplicaSet that is not the Deployment's", async () => {
    const dep = newDeployment('web', 1, { selector: { app: 'web' } });
    const client = new FakeClient();
    const hash = computeHash(dep.spec!.template);
    client.stored.set(`web-${hash}`, rs(`web-${hash}`, 1, { app: 'other' }, OLD));
    client.fail('create', 'replicasets', new ApiError(409, 'AlreadyExists', 'exists'));
    await expect(getNewReplicaSet(syncContext(client), dep, [], [], true)).rejects.toThrow('exists');
    const status = client.actions.find((a) => a.resource === 'deployments/status')!.object as Deployment;
    expect(status.status?.collisionCount).toBe(1);
    expect(computeHash(dep.spec!.template, 1)).not.toBe(hash);
  });

  it('reports a failed create as Progressing=False ReplicaSetCreateError', async () => {
    const dep = newDeployment('web', 1, { selector: { app: 'web' }, progressDeadlineSeconds: 600 });
    const client = new FakeClient();
    client.fail('create', 'replicasets', new ApiError(403, 'Forbidden', 'exceeded quota'));
    await expect(getNewReplicaSet(syncContext(client), dep, [], [], true)).rejects.toThrow('exceeded quota');
    const status = client.actions.find((a) => a.resource === 'deployments/status')!.object as Deployment;
    expect(status.status?.conditions?.[0]).toMatchObject({ status: 'False', reason: 'ReplicaSetCreateError' });
    expect(client.events[0]).toMatch(
      /^Warning ReplicaSetCreateError Failed to create new replica set "web-.*": exceeded quota$/,
    );
  });
});
