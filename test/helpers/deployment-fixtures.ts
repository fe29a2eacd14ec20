/**
 * Fixtures for the deployment controller's unit tests, after upstream's
 * deployment_controller_test.go helpers (newDeployment, newReplicaSet, rs, newRSWithStatus) and
 * a recording fake of its client (upstream's fake clientset: every write is an action).
 */
import { randomUUID } from 'node:crypto';
import type { Deployment, DeploymentClient, ReplicaSet, SyncContext } from '../../src/controllers/deployment/types.js';

type IntOrPercent = number | string;

/** Upstream newDeployment: RollingUpdate with maxSurge and maxUnavailable 0 unless given. */
export function newDeployment(
  name: string,
  replicas: number,
  opts: {
    revisionHistoryLimit?: number;
    maxSurge?: IntOrPercent;
    maxUnavailable?: IntOrPercent;
    selector?: Record<string, string>;
    progressDeadlineSeconds?: number;
  } = {},
): Deployment {
  const selector = opts.selector ?? {};
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { uid: randomUUID(), name, namespace: 'default', annotations: {} },
    spec: {
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: opts.maxSurge ?? 0, maxUnavailable: opts.maxUnavailable ?? 0 },
      },
      replicas,
      selector: { matchLabels: { ...selector } },
      template: {
        metadata: { labels: { ...selector } },
        spec: { containers: [{ name: 'foo', image: 'foo/bar' }] },
      },
      ...(opts.revisionHistoryLimit !== undefined ? { revisionHistoryLimit: opts.revisionHistoryLimit } : {}),
      ...(opts.progressDeadlineSeconds !== undefined ? { progressDeadlineSeconds: opts.progressDeadlineSeconds } : {}),
    },
  };
}

/** Upstream newReplicaSet: owned by `d`, its selector and template. */
export function newReplicaSet(d: Deployment, name: string, replicas: number): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      uid: randomUUID(),
      namespace: 'default',
      labels: { ...(d.spec?.selector?.matchLabels ?? {}) },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: d.metadata.name ?? '',
          uid: d.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: { selector: structuredClone(d.spec?.selector), replicas, template: structuredClone(d.spec?.template) },
  };
}

/** Upstream rs(): a bare ReplicaSet created at `created`. */
export function rs(
  name: string,
  replicas: number,
  selector: Record<string, string> | undefined,
  created: string,
): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, uid: randomUUID(), creationTimestamp: created, namespace: 'default' },
    spec: { replicas, selector: { matchLabels: selector }, template: {} },
  };
}

/** Upstream newRSWithStatus. */
export function newRSWithStatus(
  name: string,
  specReplicas: number,
  statusReplicas: number,
  selector?: Record<string, string>,
): ReplicaSet {
  const r = newReplicaSet(newDeployment(name, specReplicas, { selector }), name, specReplicas);
  r.status = { replicas: statusReplicas };
  return r;
}

/** One write the fake saw: verb and resource as upstream's actions name them, and the object. */
export interface Action {
  verb: 'create' | 'update' | 'delete' | 'get';
  resource: 'replicasets' | 'deployments' | 'deployments/status';
  object?: ReplicaSet | Deployment;
  name?: string;
}

/** A recording DeploymentClient; `fail(verb, resource, name?)` makes matching writes throw. */
export class FakeClient implements DeploymentClient {
  readonly actions: Action[] = [];
  readonly events: string[] = [];
  readonly stored = new Map<string, ReplicaSet>();
  private readonly failures: { verb: string; resource: string; name?: string; error: Error }[] = [];

  fail(verb: string, resource: string, error: Error, name?: string): void {
    this.failures.push({ verb, resource, name, error });
  }

  private record(a: Action): void {
    this.actions.push(a);
    const name = a.name ?? a.object?.metadata.name;
    const f = this.failures.find((x) => x.verb === a.verb && x.resource === a.resource && (!x.name || x.name === name));
    if (f) throw f.error;
  }

  async createReplicaSet(r: ReplicaSet) {
    this.record({ verb: 'create', resource: 'replicasets', object: structuredClone(r) });
    const created = { ...structuredClone(r), metadata: { ...r.metadata, uid: randomUUID() } };
    this.stored.set(r.metadata.name ?? '', created);
    return created;
  }
  async updateReplicaSet(r: ReplicaSet) {
    this.record({ verb: 'update', resource: 'replicasets', object: structuredClone(r) });
    return structuredClone(r);
  }
  async deleteReplicaSet(_ns: string, name: string) {
    this.record({ verb: 'delete', resource: 'replicasets', name });
  }
  async getReplicaSet(_ns: string, name: string) {
    this.record({ verb: 'get', resource: 'replicasets', name });
    const found = this.stored.get(name);
    if (!found) throw new Error(`replicasets "${name}" not found`);
    return structuredClone(found);
  }
  async updateDeployment(d: Deployment) {
    this.record({ verb: 'update', resource: 'deployments', object: structuredClone(d) });
    return structuredClone(d);
  }
  async updateDeploymentStatus(d: Deployment) {
    this.record({ verb: 'update', resource: 'deployments/status', object: structuredClone(d) });
    return structuredClone(d);
  }
  event(_d: Deployment, type: string, reason: string, message: string) {
    this.events.push(`${type} ${reason} ${message}`);
  }

  /** The ReplicaSets written by update, in order. */
  updatedReplicaSets(): ReplicaSet[] {
    return this.actions
      .filter((a) => a.verb === 'update' && a.resource === 'replicasets')
      .map((a) => a.object as ReplicaSet);
  }
}

/** A sync context over `client` at a fixed `now`; requeues are recorded in `requeues` (ms). */
export function syncContext(
  client: FakeClient,
  now = new Date('2017-02-15T18:49:00Z'),
): SyncContext & { requeues: number[] } {
  const requeues: number[] = [];
  return { client, now: () => now, requeueAfter: (_d, ms) => requeues.push(ms), requeues };
}

/** Upstream currentDeployment: a Recreate Deployment with the given status counts and conditions. */
export function currentDeployment(
  pds: number | undefined,
  replicas: number,
  statusReplicas: number,
  updated: number,
  available: number,
  conditions: NonNullable<NonNullable<Deployment['status']>['conditions']> = [],
): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'progress-test', namespace: 'default' },
    spec: { ...(pds !== undefined ? { progressDeadlineSeconds: pds } : {}), replicas, strategy: { type: 'Recreate' } },
    status: { replicas: statusReplicas, updatedReplicas: updated, availableReplicas: available, conditions },
  };
}
