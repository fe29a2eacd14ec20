/**
 * The pod conditions a kubelet derives from its container statuses, as upstream
 * pkg/kubelet/status/generate.go (1.33) GenerateContainersReadyCondition,
 * GeneratePodReadyCondition and GeneratePodInitializedCondition: status, reason and message,
 * without times (the caller sets lastTransitionTime). Sidecars are init containers with
 * restartPolicy Always.
 */
import type { Pod } from '../../resources/pods/pods.schema.js';

type PodStatus = NonNullable<Pod['status']>;
type ContainerStatus = NonNullable<PodStatus['containerStatuses']>[number];
/** A pod condition without its times. */
export interface ConditionBody {
  readonly type: string;
  readonly status: 'True' | 'False';
  readonly reason?: string;
  readonly message?: string;
}
/** The parts of a pod spec the conditions read. */
export type SpecView = Partial<Pick<NonNullable<Pod['spec']>, 'containers' | 'initContainers' | 'readinessGates'>>;

const list = (names: readonly string[]) => `[${names.join(' ')}]`;

function body(type: string, ok: boolean, reason?: string, message?: string): ConditionBody {
  return { type, status: ok ? 'True' : 'False', ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

function terminal(type: string, phase: string): ConditionBody {
  return body(type, false, phase === 'Failed' ? 'PodFailed' : 'PodCompleted');
}

/** ContainersReady: every regular container and sidecar has a status and is ready. */
export function containersReadyCondition(
  spec: SpecView | undefined,
  statuses: readonly ContainerStatus[] | undefined,
  phase: string,
): ConditionBody {
  if (!statuses) return body('ContainersReady', false, 'UnknownContainerStatuses');
  const unknown: string[] = [];
  const unready: string[] = [];
  const sidecars = (spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  for (const c of [...sidecars, ...(spec?.containers ?? [])]) {
    const s = statuses.find((x) => x.name === c.name);
    if (!s) unknown.push(c.name);
    else if (!s.ready) unready.push(c.name);
  }
  if ((phase === 'Succeeded' && !unknown.length) || phase === 'Failed') return terminal('ContainersReady', phase);
  const messages = [
    ...(unknown.length ? [`containers with unknown status: ${list(unknown)}`] : []),
    ...(unready.length ? [`containers with unready status: ${list(unready)}`] : []),
  ];
  return messages.length
    ? body('ContainersReady', false, 'ContainersNotReady', messages.join(', '))
    : body('ContainersReady', true);
}

/** Ready: ContainersReady, and every readiness gate's condition (from `conditions`) True. */
export function podReadyCondition(
  spec: SpecView | undefined,
  conditions: readonly { type: string; status: string }[],
  statuses: readonly ContainerStatus[] | undefined,
  phase: string,
): ConditionBody {
  const containers = containersReadyCondition(spec, statuses, phase);
  if (containers.status !== 'True') return { ...containers, type: 'Ready' };
  const gates = (spec?.readinessGates ?? []).flatMap((g) => {
    const c = conditions.find((x) => x.type === g.conditionType);
    if (!c) return [`corresponding condition of pod readiness gate "${g.conditionType}" does not exist.`];
    return c.status === 'True'
      ? []
      : [`the status of pod readiness gate "${g.conditionType}" is not "True", but ${c.status}`];
  });
  return gates.length ? body('Ready', false, 'ReadinessGatesNotReady', gates.join(', ')) : body('Ready', true);
}

/** Initialized: every init container completed (a sidecar: started), or a regular container has started. */
export function podInitializedCondition(
  spec: SpecView | undefined,
  statuses: readonly ContainerStatus[] | undefined,
  phase: string,
): ConditionBody {
  const inits = spec?.initContainers ?? [];
  if (!statuses && inits.length) return body('Initialized', false, 'UnknownContainerStatuses');
  const unknown: string[] = [];
  const incomplete: string[] = [];
  for (const c of inits) {
    const s = statuses?.find((x) => x.name === c.name);
    if (!s) unknown.push(c.name);
    else if (c.restartPolicy === 'Always' ? !s.started : !s.ready) incomplete.push(c.name);
  }
  if (phase === 'Succeeded' && !unknown.length) return body('Initialized', true, 'PodCompleted');
  const regular = new Set((spec?.containers ?? []).map((c) => c.name));
  const started = (statuses ?? []).some((s) => regular.has(s.name) && (s.state?.running || s.state?.terminated));
  if (started) return body('Initialized', true);
  const messages = [
    ...(unknown.length ? [`containers with unknown status: ${list(unknown)}`] : []),
    ...(incomplete.length ? [`containers with incomplete status: ${list(incomplete)}`] : []),
  ];
  return messages.length
    ? body('Initialized', false, 'ContainersNotInitialized', messages.join(', '))
    : body('Initialized', true);
}
