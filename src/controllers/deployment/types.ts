/**
 * The shapes the deployment controller works on (upstream pkg/controller/deployment): the
 * stored apps/v1 Deployment and ReplicaSet, the constants of deployment/util/deployment_util.go,
 * and the client the sync functions write through (upstream's clientset calls), so they can be
 * tested with a fake that records its actions.
 */
import type { Deployment } from '../../resources/deployments/deployments.schema.js';
import type { ReplicaSet } from '../../resources/replicasets/replicasets.schema.js';

export type { Deployment, ReplicaSet };

/** A Deployment's status (apps/v1 DeploymentStatus). */
export type DeploymentStatus = NonNullable<Deployment['status']>;
/** One DeploymentCondition. */
export type DeploymentCondition = NonNullable<DeploymentStatus['conditions']>[number];
/** A pod template (PodTemplateSpec). */
export type PodTemplate = NonNullable<NonNullable<Deployment['spec']>['template']>;

/** The label (and selector key) that tells a Deployment's ReplicaSets apart (apps.DefaultDeploymentUniqueLabelKey). */
export const POD_TEMPLATE_HASH = 'pod-template-hash';
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
/** Where apps/v1 keeps the legacy spec.rollbackTo (upstream apps.DeprecatedRollbackTo). */
export const ROLLBACK_TO_ANNOTATION = 'deprecated.deployment.rollback.to';
/** kubectl's last-applied annotation (never copied between a Deployment and its ReplicaSets). */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
/** Upstream maxRevHistoryLengthInChars: the revision-history annotation's length limit. */
export const MAX_REV_HISTORY_LENGTH = 2000;

/** Condition reasons (upstream deployment_util.go). */
export const Reason = {
  ReplicaSetUpdated: 'ReplicaSetUpdated',
  FailedRSCreate: 'ReplicaSetCreateError',
  NewReplicaSet: 'NewReplicaSetCreated',
  FoundNewRS: 'FoundNewReplicaSet',
  NewRSAvailable: 'NewReplicaSetAvailable',
  TimedOut: 'ProgressDeadlineExceeded',
  PausedDeploy: 'DeploymentPaused',
  ResumedDeploy: 'DeploymentResumed',
  MinimumReplicasAvailable: 'MinimumReplicasAvailable',
  MinimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

/** Rollback event reasons (upstream deployment_util.go). */
export const RollbackReason = {
  RevisionNotFound: 'DeploymentRollbackRevisionNotFound',
  TemplateUnchanged: 'DeploymentRollbackTemplateUnchanged',
  Done: 'DeploymentRollback',
} as const;

/**
 * The writes the sync functions make (upstream's clientset calls). Every method throws ApiError
 * as the server answers (404, 409 AlreadyExists or Conflict, 422).
 */
export interface DeploymentClient {
  createReplicaSet(rs: ReplicaSet): Promise<ReplicaSet>;
  updateReplicaSet(rs: ReplicaSet): Promise<ReplicaSet>;
  deleteReplicaSet(namespace: string, name: string): Promise<void>;
  /** A fresh read (upstream's lister Get after an AlreadyExists). */
  getReplicaSet(namespace: string, name: string): Promise<ReplicaSet>;
  /** Update the Deployment itself (spec and metadata; rollback). */
  updateDeployment(d: Deployment): Promise<Deployment>;
  /** Update the Deployment's status and annotations (upstream UpdateStatus, whose strategy keeps annotations). */
  updateDeploymentStatus(d: Deployment): Promise<Deployment>;
  /** Record an Event about `d` (type Normal or Warning). */
  event(d: Deployment, type: 'Normal' | 'Warning', reason: string, message: string): void;
}

/** What a sync needs besides the client: the clock and a way to look again later. */
export interface SyncContext {
  readonly client: DeploymentClient;
  readonly now: () => Date;
  /** Sync `d` again after `ms` milliseconds (upstream enqueueAfter; 0: rate-limited now). */
  readonly requeueAfter: (d: Deployment, ms: number) => void;
}

/** `spec.replicas` of a Deployment or ReplicaSet (defaults make it present; absent reads as 0). */
export const specReplicas = (o: { spec?: { replicas?: number | null } | null } | null | undefined): number =>
  o?.spec?.replicas ?? 0;
