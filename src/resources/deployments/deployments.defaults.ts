/**
 * Deployment defaults per version, as upstream's SetDefaults_Deployment of each
 * (pkg/apis/apps/v1, v1beta2, v1beta1 and pkg/apis/extensions/v1beta1 defaults.go) with the pod
 * template's PodSpec defaults:
 * - apps/v1 and apps/v1beta2: replicas 1; strategy RollingUpdate with maxUnavailable and
 *   maxSurge 25% (only for RollingUpdate); revisionHistoryLimit 10; progressDeadlineSeconds 600;
 *   the selector is required (not defaulted).
 * - apps/v1beta1: as apps/v1 but revisionHistoryLimit 2, and selector and object labels from
 *   the template's labels.
 * - extensions/v1beta1: selector and labels from the template; replicas 1; RollingUpdate with
 *   maxUnavailable 1 and maxSurge 1 (also when rollingUpdate is given with another type);
 *   revisionHistoryLimit and progressDeadlineSeconds the max int32, which mean "keep all" and
 *   "no deadline" as unset did in 1.10: upstream sets them so since apps/v1 became the storage
 *   version, whose own defaults would otherwise give an extensions/v1beta1 object 10 and 600s.
 */
import type { ApiObject } from '../../api/object.js';
import { defaultPodSpec } from '../../api/core/pod-spec-defaults.js';
import type { Deployment } from './deployments.schema.js';

type Spec = NonNullable<Deployment['spec']>;

const MAX_INT32 = 2147483647;

/** Selector and object labels from the template's labels (the older versions' SetDefaults_Deployment). */
export function selectorFromTemplate(obj: {
  metadata: ApiObject['metadata'];
  spec?: {
    selector?: unknown;
    template?: { metadata?: { labels?: Record<string, string> | null } | null } | null;
  } | null;
}): void {
  const labels = obj.spec?.template?.metadata?.labels;
  if (labels === undefined || labels === null || !obj.spec) return;
  if (obj.spec.selector === undefined || obj.spec.selector === null) obj.spec.selector = { matchLabels: { ...labels } };
  if (!obj.metadata.labels || !Object.keys(obj.metadata.labels).length) obj.metadata.labels = { ...labels };
}

/** The defaults of one version, on a Deployment of that version (whose spec has apps/v1's fields and maybe rollbackTo). */
function defaultsWith(opts: {
  readonly fromTemplate: boolean;
  readonly history: number;
  readonly deadline: number;
  readonly surge: number | string;
  readonly rollingAlways: boolean;
}) {
  return (obj: ApiObject): void => {
    const d = obj as Deployment;
    const spec: Spec = (d.spec ??= {});
    if (opts.fromTemplate) selectorFromTemplate(d);
    spec.replicas ??= 1;
    const strategy = (spec.strategy ??= {});
    if (!strategy.type) strategy.type = 'RollingUpdate';
    if (strategy.type === 'RollingUpdate' || (opts.rollingAlways && strategy.rollingUpdate)) {
      const rolling = (strategy.rollingUpdate ??= {});
      rolling.maxUnavailable ??= opts.surge;
      rolling.maxSurge ??= opts.surge;
    }
    spec.revisionHistoryLimit ??= opts.history;
    spec.progressDeadlineSeconds ??= opts.deadline;
    defaultPodSpec(spec.template?.spec);
  };
}

/** apps/v1 (and apps/v1beta2) SetDefaults_Deployment. */
export const defaultDeploymentV1 = defaultsWith({
  fromTemplate: false,
  history: 10,
  deadline: 600,
  surge: '25%',
  rollingAlways: false,
});

/** apps/v1beta1 SetDefaults_Deployment. */
export const defaultDeploymentV1beta1 = defaultsWith({
  fromTemplate: true,
  history: 2,
  deadline: 600,
  surge: '25%',
  rollingAlways: false,
});

/** extensions/v1beta1 SetDefaults_Deployment. */
export const defaultDeploymentExtensions = defaultsWith({
  fromTemplate: true,
  history: MAX_INT32,
  deadline: MAX_INT32,
  surge: 1,
  rollingAlways: true,
});
