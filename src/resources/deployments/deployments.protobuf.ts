/**
 * Protobuf messages of Deployment at each served version (notation in api/protobuf/messages.ts;
 * numbers from k8s.io/api apps/v1, apps/v1beta2, apps/v1beta1 and extensions/v1beta1
 * generated.proto), with each version's Scale, and DeploymentRollback where it is served.
 * Pointer fields and fields without `omitempty` keep their zero value (`!`).
 */
import { listMessage, mergeMessages, type MessageSet, type ProtoMessages } from '../../api/protobuf/messages.js';
import { scaleMessages, type ScaleVersion } from '../apps-common/scale.js';
import type { DeploymentVersion } from './deployments.schema.js';

/** The messages every version shares (apps/v1's). */
const COMMON: MessageSet = {
  ...listMessage('Deployment'),
  Deployment: 'metadata=1:ObjectMeta spec=2:DeploymentSpec status=3:DeploymentStatus',
  DeploymentCondition: 'type=1! status=2! lastUpdateTime=6:Time lastTransitionTime=7:Time reason=4 message=5',
  DeploymentStatus:
    'observedGeneration=1:int64 replicas=2:int32 updatedReplicas=3:int32 readyReplicas=7:int32 availableReplicas=4:int32 unavailableReplicas=5:int32 terminatingReplicas=9:int32! conditions=6:[]DeploymentCondition collisionCount=8:int32!',
  DeploymentStrategy: 'type=1 rollingUpdate=2:RollingUpdateDeployment',
  RollingUpdateDeployment: 'maxUnavailable=1:IntOrString maxSurge=2:IntOrString',
};

const SPEC =
  'replicas=1:int32! selector=2:LabelSelector template=3:PodTemplateSpec strategy=4:DeploymentStrategy minReadySeconds=5:int32 revisionHistoryLimit=6:int32! paused=7:bool progressDeadlineSeconds=9:int32!';

/** apps/v1beta1 and extensions/v1beta1: spec.rollbackTo (8) and the rollback subresource's body. */
const WITH_ROLLBACK: MessageSet = {
  ...COMMON,
  DeploymentSpec: `${SPEC} rollbackTo=8:RollbackConfig`,
  DeploymentRollback: 'name=1! updatedAnnotations=2:map<string> rollbackTo=3:RollbackConfig',
  RollbackConfig: 'revision=1:int64',
};

/** The Scale each version's `scale` subresource answers. */
export const SCALE_VERSION: Record<DeploymentVersion, ScaleVersion> = {
  'apps/v1': 'autoscaling/v1',
  'apps/v1beta2': 'apps/v1beta2',
  'apps/v1beta1': 'apps/v1beta1',
  'extensions/v1beta1': 'extensions/v1beta1',
};

/** The messages of a Deployment served at `version`. */
export function deploymentMessages(version: DeploymentVersion): ProtoMessages {
  const own =
    version === 'apps/v1beta1' || version === 'extensions/v1beta1'
      ? WITH_ROLLBACK
      : { ...COMMON, DeploymentSpec: SPEC };
  return mergeMessages({ [version]: own }, scaleMessages(SCALE_VERSION[version]));
}
