/**
 * Deployment: stored as apps/v1 under `deployments` (upstream's storage version today), and
 * served at apps/v1beta2, apps/v1beta1 and extensions/v1beta1 over that storage, each with its
 * own schema, defaults and Scale kind (deployments.conversion.ts, apps-common/scale.ts);
 * apps/v1beta1 and extensions/v1beta1 also serve `rollback`. As upstream (1.10
 * pkg/registry/extensions/deployment and today's pkg/registry/apps/deployment): short name
 * `deploy`, category `all`; status reset on create and kept by the main resource's writes;
 * generation 1 on create and +1 on an update that changes the spec or the annotations (which
 * the controller copies to ReplicaSets); the selector is immutable except at apps/v1beta1 and
 * extensions/v1beta1, whose updates may change it.
 */
import { patchMetaOf } from '../../api/core/patch-meta.js';
import type { z } from 'zod';
import type { ResourceDefinition, Strategy, SubresourceDefinition, VersionConversion } from '../../registry/types.js';
import { defineResource, keepStatusOnUpdate, specGeneration, statusSubresource } from '../define.js';
import { workloadScale } from '../apps-common/scale.js';
import {
  deploymentExtensionsConversion,
  deploymentV1beta1Conversion,
  deploymentV1beta2Conversion,
} from './deployments.conversion.js';
import { defaultDeploymentV1 } from './deployments.defaults.js';
import { deploymentMessages, SCALE_VERSION } from './deployments.protobuf.js';
import { rollbackSubresource } from './deployments.rollback.js';
import {
  deploymentExtensionsSchema,
  deploymentSchema,
  deploymentV1beta1Schema,
  deploymentV1beta2Schema,
  type Deployment,
  type DeploymentVersion,
} from './deployments.schema.js';
import { deploymentPrinter } from './deployments.table.js';
import { validateDeployment, validateDeploymentUpdate } from './deployments.validation.js';

const generation = specGeneration('metadata.annotations');

/** The strategy (on stored objects); `immutableSelector` where the served version forbids selector changes. */
function strategyOf(immutableSelector: boolean): Strategy<Deployment> {
  return {
    defaults: defaultDeploymentV1,
    prepareForCreate(obj) {
      obj.status = {};
      generation.prepareForCreate!(obj);
    },
    prepareForUpdate(obj, old) {
      keepStatusOnUpdate.prepareForUpdate!(obj, old);
      generation.prepareForUpdate!(obj, old);
    },
    validate: validateDeployment,
    validateUpdate: (obj, old) => validateDeploymentUpdate(obj, old, immutableSelector),
  };
}

/**
 * `deployments/status`: the status, and the request's annotations (upstream
 * deploymentStatusStrategy.PrepareForUpdate resets only `spec` and `metadata.labels`, so the
 * deployment controller records `deployment.kubernetes.io/revision` through it without a new
 * generation); the rest of metadata as every status subresource keeps it.
 */
const baseStatus = statusSubresource<Deployment>('Deployment');
const deploymentStatus: SubresourceDefinition<Deployment> = {
  ...baseStatus,
  merge: (requested, old) => {
    const merged = baseStatus.merge!(requested, old);
    return { ...merged, metadata: { ...merged.metadata, annotations: requested.metadata?.annotations } };
  },
};

const DESCRIPTION = 'Deployment enables declarative updates for Pods and ReplicaSets.';

/** apps/v1, the storage version. */
export const deployments = defineResource({
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  description: DESCRIPTION,
  plural: 'deployments',
  namespaced: true,
  schema: deploymentSchema,
  printer: deploymentPrinter,
  protobuf: deploymentMessages('apps/v1'),
  shortNames: ['deploy'],
  categories: ['all'],
  subresources: [deploymentStatus, workloadScale<Deployment>(SCALE_VERSION['apps/v1'])],
  strategy: strategyOf(true),
});

/** The row of `version`, served over the apps/v1 storage. */
function servedAt(
  version: Exclude<DeploymentVersion, 'apps/v1'>,
  schema: z.ZodType,
  conversion: VersionConversion,
): ResourceDefinition<Deployment> {
  const [group, v] = version.split('/') as [string, string];
  const rollback = version === 'apps/v1beta1' || version === 'extensions/v1beta1';
  return {
    ...deployments,
    group,
    version: v,
    // Only apps' workloads are in `all` (upstream #58301, 1.10): `kubectl get all` lists each once.
    categories: group === 'apps' ? ['all'] : [],
    description: `DEPRECATED - This group version of Deployment is deprecated by apps/v1/Deployment. ${DESCRIPTION}`,
    schema,
    patchMeta: patchMetaOf(schema),
    protobuf: deploymentMessages(version),
    subresources: [
      deploymentStatus,
      workloadScale<Deployment>(SCALE_VERSION[version]),
      ...(rollback ? [rollbackSubresource(version)] : []),
    ],
    strategy: strategyOf(!rollback),
    conversion,
  };
}

export const deploymentsV1beta2 = servedAt('apps/v1beta2', deploymentV1beta2Schema, deploymentV1beta2Conversion);
export const deploymentsV1beta1 = servedAt('apps/v1beta1', deploymentV1beta1Schema, deploymentV1beta1Conversion);
export const deploymentsExtensions = servedAt(
  'extensions/v1beta1',
  deploymentExtensionsSchema,
  deploymentExtensionsConversion,
);
