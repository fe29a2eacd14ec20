/**
 * DaemonSet fields (k8s.io/api apps/v1 types.go; apps/v1beta2 has the same fields,
 * extensions/v1beta1 adds spec.templateGeneration, which apps/v1 keeps in the annotation
 * `deprecated.daemonset.template.generation`).
 */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { int, intOrString, obj, str } from '../../api/core/schema-kit.js';
import { labelSelectorSchema } from '../apps-common/label-selector.js';
import { podTemplate, workloadConditions } from '../statefulsets/statefulsets.schema.js';

/** Where apps/v1 and apps/v1beta2 keep extensions/v1beta1's spec.templateGeneration (upstream DeprecatedTemplateGeneration). */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

const specShape = {
  minReadySeconds: int.describe(
    'Seconds a new daemon pod must be ready, without any container crashing, to count as available (default 0).',
  ),
  revisionHistoryLimit: int.describe('Number of old revisions kept to allow rollback (default 10).'),
  selector: labelSelectorSchema.describe(
    "Label query over the pods managed by the daemon set. It must match the template's labels.",
  ),
  template: podTemplate.describe(
    "Pod created on every node matching the template's node selector (every node without one). restartPolicy must be Always.",
  ),
  updateStrategy: obj({
    rollingUpdate: obj({
      maxSurge: intOrString.describe(
        'Most nodes with an available daemon pod that may get an updated pod alongside it during an update (a number or a percentage, default 0; not 0 when maxUnavailable is 0).',
      ),
      maxUnavailable: intOrString.describe(
        'Most daemon pods (a number or a percentage of desiredNumberScheduled, rounded up) that may be unavailable during an update (default 1; not 0 when maxSurge is 0).',
      ),
    }).describe('Parameters of a RollingUpdate.'),
    type: str.describe(
      'RollingUpdate (default in apps/v1 and apps/v1beta2) or OnDelete (default in extensions/v1beta1).',
    ),
  }).describe('How daemon pods are replaced when the template changes.'),
};

const statusShape = obj({
  collisionCount: int.describe('Hash collisions met when naming the newest ControllerRevision.'),
  conditions: workloadConditions.describe("Latest observations of the daemon set's state."),
  currentNumberScheduled: int.describe('Nodes running at least one daemon pod that are supposed to run it.'),
  desiredNumberScheduled: int.describe('Nodes that should be running the daemon pod.'),
  numberAvailable: int.describe(
    'Nodes that should run the daemon pod and have one available (ready for minReadySeconds).',
  ),
  numberMisscheduled: int.describe('Nodes running the daemon pod that are not supposed to run it.'),
  numberReady: int.describe('Nodes that should run the daemon pod and have one with a Ready condition.'),
  numberUnavailable: int.describe('Nodes that should run the daemon pod and have none available.'),
  observedGeneration: int.describe('Most recent generation the controller has acted on.'),
  updatedNumberScheduled: int.describe('Nodes running an updated daemon pod.'),
});

/** apps/v1 and apps/v1beta2 (the stored form). */
export const daemonSetSchema = kindSchema({ spec: obj(specShape), status: statusShape });

/** extensions/v1beta1: templateGeneration in the spec. */
export const daemonSetSchemaExtensions = kindSchema({
  spec: obj({
    ...specShape,
    templateGeneration: int.describe(
      'Generation of the template, set by the server: 1 on create, +1 on each template change. Deprecated.',
    ),
  }),
  status: statusShape,
});

/** A DaemonSet as stored (apps/v1). */
export type DaemonSet = KindObject<typeof daemonSetSchema>;
/** A DaemonSet as extensions/v1beta1 serves it. */
export type DaemonSetExtensions = KindObject<typeof daemonSetSchemaExtensions>;
