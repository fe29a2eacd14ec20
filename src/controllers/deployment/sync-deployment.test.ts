// syncDeployment's dispatch (upstream deployment_controller.go syncDeployment with sync.go,
// rollback.go): selecting everything, paused, the legacy rollback annotation, scaling events.
import { describe, expect, it } from 'vitest';
import { FakeClient, newDeployment, newReplicaSet, syncContext } from '../../../test/helpers/deployment-fixtures.js';
import { syncDeployment } from './sync-deployment.js';
import type { Deployment, ReplicaSet } from './types.js';

const REV = 'deployment.kubernetes.io/revision';

/** A Deployment at revision 2 (image b) with its old revision-1 ReplicaSet (image a), both settled. */
function history(): { d: Deployment; v1: ReplicaSet; v2: ReplicaSet } {
  const d = newDeployment('foo', 2, { selector: { app: 'foo' }, maxSurge: 1, progressDeadlineSeconds: 600 });
  const v1 = newReplicaSet(d, 'foo-v1', 0);
  v1.metadata.annotations = { [REV]: '1', 'kubernetes.io/change-cause': 'create' };
  v1.metadata.creationTimestamp = '2020-01-01T00:00:00Z';
  v1.spec!.template!.spec!.containers![0]!.image = 'a';
  d.spec!.template!.spec!.containers![0]!.image = 'b';
  const v2 = newReplicaSet(d, 'foo-v2', 2);
  v2.metadata.annotations = {
    [REV]: '2',
    'deployment.kubernetes.io/desired-replicas': '2',
    'deployment.kubernetes.io/max-replicas': '3',
  };
  v2.metadata.creationTimestamp = '2020-01-02T00:00:00Z';
  v2.status = { replicas: 2, availableReplicas: 2 };
  d.metadata.annotations = { [REV]: '2' };
  return { d, v1, v2 };
}

describe('syncDeployment', () => {
  it('only records the generation of a Deployment selecting everything', async () => {
    const d = newDeployment('foo', 1);
    d.metadata.generation = 3;
    const client = new FakeClient();
    await syncDeployment(syncContext(client), d, [], new Map());
    expect(client.actions.map((a) => `${a.verb} ${a.resource}`)).toEqual(['update deployments/status']);
    expect((client.actions[0]!.object as Deployment).status?.observedGeneration).toBe(3);
    expect(client.events).toEqual([
      'Warning SelectingAll This deployment is selecting all pods. A non-empty selector is required.',
    ]);
  });

  it('marks a paused Deployment DeploymentPaused and creates no ReplicaSet for its new template', async () => {
    const { d, v1, v2 } = history();
    d.spec!.paused = true;
    d.spec!.template!.spec!.containers![0]!.image = 'c';
    const client = new FakeClient();
    await syncDeployment(syncContext(client), d, [v1, v2], new Map());
    expect(client.actions.some((a) => a.verb === 'create')).toBe(false);
    const first = client.actions[0]!.object as Deployment;
    expect(first.status?.conditions?.[0]).toMatchObject({
      type: 'Progressing',
      status: 'Unknown',
      reason: 'DeploymentPaused',
    });
  });

  it('cleans the history of a paused Deployment, but not while a rollback is pending', async () => {
    const { d, v1, v2 } = history();
    d.spec!.paused = true;
    d.spec!.revisionHistoryLimit = 0;
    const client = new FakeClient();
    await syncDeployment(syncContext(client), d, [v1, v2], new Map());
    expect(client.actions.filter((a) => a.verb === 'delete').map((a) => a.name)).toEqual(['foo-v1']);
    d.metadata.annotations!['deprecated.deployment.rollback.to'] = '0';
    const pending = new FakeClient();
    await syncDeployment(syncContext(pending), d, [v1, v2], new Map());
    expect(pending.actions.filter((a) => a.verb === 'delete')).toEqual([]);
  });

  it('rolls back to the previous revision for deprecated.deployment.rollback.to 0', async () => {
    const { d, v1, v2 } = history();
    d.metadata.annotations!['deprecated.deployment.rollback.to'] = '0';
    const client = new FakeClient();
    await syncDeployment(syncContext(client), d, [v1, v2], new Map());
    const update = client.actions.find((a) => a.resource === 'deployments')!.object as Deployment;
    expect(update.spec?.template?.spec?.containers?.[0]?.image).toBe('a');
    expect(update.metadata.annotations).toEqual({ [REV]: '2', 'kubernetes.io/change-cause': 'create' });
    expect(client.events).toContain('Normal DeploymentRollback Rolled back deployment "foo" to revision 1');
  });

  it('gives up a rollback to a revision that does not exist and clears the annotation', async () => {
    const { d, v1, v2 } = history();
    d.metadata.annotations!['deprecated.deployment.rollback.to'] = '7';
    const client = new FakeClient();
    await syncDeployment(syncContext(client), d, [v1, v2], new Map());
    const update = client.actions.find((a) => a.resource === 'deployments')!.object as Deployment;
    expect(update.metadata.annotations?.['deprecated.deployment.rollback.to']).toBeUndefined();
    expect(update.spec?.template?.spec?.containers?.[0]?.image).toBe('b');
    expect(client.events).toContain(
      'Warning DeploymentRollbackRevisionNotFound Unable to find the revision to rollback to.',
    );
  });

  it('treats a changed replica count as a scaling event (no new ReplicaSet, the active one resized)', async () => {
    const { d, v1, v2 } = history();
    d.spec!.replicas = 5;
    const client = new FakeClient();
    await syncDeployment(syncContext(client), d, [v1, v2], new Map());
    expect(client.actions.some((a) => a.verb === 'create')).toBe(false);
    const scaled = client.updatedReplicaSets().find((r) => r.metadata.name === 'foo-v2')!;
    expect(scaled.spec?.replicas).toBe(5);
    expect(scaled.metadata.annotations).toMatchObject({
      'deployment.kubernetes.io/desired-replicas': '5',
      'deployment.kubernetes.io/max-replicas': '6',
    });
  });
});
