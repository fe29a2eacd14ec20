/**
 * `POST deployments/{name}/rollback` of apps/v1beta1 and extensions/v1beta1 (upstream 1.10
 * pkg/registry/extensions/deployment/storage RollbackREST): the DeploymentRollback body is
 * checked (ValidateDeploymentRollback), then the deployment it names (its `name`, as upstream,
 * not the path's) gets `updatedAnnotations` merged into its annotations and `spec.rollbackTo`
 * set, by a guaranteed update of storage that runs no strategy (so `generation` does not move,
 * as upstream's), and the answer is a Success Status. apps/v1 keeps spec.rollbackTo in the
 * `deprecated.deployment.rollback.to` annotation (see deployments.conversion.ts); the
 * deployment controller of a cluster clears it once it has rolled back.
 */
import { kindSchema } from '../../api/meta-schema.js';
import { str, strMap } from '../../api/core/schema-kit.js';
import { successStatus } from '../../api/status.js';
import { invalid } from '../../errors/api-error.js';
import { groupVersionOf, type KindObject, type SubresourceDefinition } from '../../registry/types.js';
import { ROLLBACK_TO_ANNOTATION } from './deployments.conversion.js';
import { rollbackConfigSchema, type Deployment } from './deployments.schema.js';
import { validateDeploymentRollback } from './deployments.validation.js';

/** DeploymentRollback (apps/v1beta1, extensions/v1beta1); `metadata` is the server's, from the path. */
const rollbackSchema = kindSchema({
  name: str.describe('Required: This must match the Name of a deployment.'),
  rollbackTo: rollbackConfigSchema.describe('The config of this deployment rollback.'),
  updatedAnnotations: strMap.describe('The annotations to be updated to a deployment'),
});

type DeploymentRollback = KindObject<typeof rollbackSchema>;

/** The rollback subresource at `apiVersion` (apps/v1beta1 or extensions/v1beta1). */
export function rollbackSubresource(apiVersion: string): SubresourceDefinition<Deployment, DeploymentRollback> {
  const { group } = groupVersionOf(apiVersion);
  return {
    name: 'rollback',
    kind: 'DeploymentRollback',
    apiVersion,
    schema: rollbackSchema,
    verbs: ['create'],
    async create({ namespace, body, dryRun, target }) {
      const name = body.name ?? '';
      const errs = validateDeploymentRollback(body);
      if (errs.length) throw invalid('DeploymentRollback', name, errs, group);
      const revision = String(body.rollbackTo?.revision ?? 0);
      await target.mutate(
        namespace,
        name,
        (current) => ({
          ...current,
          metadata: {
            ...current.metadata,
            annotations: {
              ...(current.metadata.annotations ?? {}),
              ...(body.updatedAnnotations ?? {}),
              [ROLLBACK_TO_ANNOTATION]: revision,
            },
          },
        }),
        { dryRun, operation: 'POST' },
      );
      const { code, ...status } = successStatus(undefined, 200);
      const message = `rollback request for deployment "${name}" succeeded`;
      return { code: 201, body: { ...status, message, code } };
    },
  };
}
