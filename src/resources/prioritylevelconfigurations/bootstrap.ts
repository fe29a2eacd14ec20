/**
 * The bootstrap PriorityLevelConfigurations of upstream 1.33 (k8s.io/apiserver
 * pkg/apis/flowcontrol/bootstrap default.go): the mandatory `exempt` (type Exempt, no nominal
 * shares, nothing lendable) and `catch-all` (Limited, 5 shares, rejects what exceeds them),
 * and the 6 suggested levels, each annotated `apf.kubernetes.io/autoupdate-spec: "true"`.
 * Their specs are already in defaulted form. The ensurer (controllers/flowcontrol-bootstrap.ts)
 * writes them; the dispatcher uses them until it has read the stored objects. Objects are
 * frozen: copy before changing.
 */
import { deepFreeze, type BootstrapObject, type NoNulls } from '../flowcontrol-common/bootstrap-object.js';
import { AUTO_UPDATE_ANNOTATION, CATCH_ALL, EXEMPT, FLOWCONTROL_V1 } from '../flowcontrol-common/names.js';
import { specsEqual } from '../flowcontrol-common/spec-equality.js';
import { defaultPriorityLevelConfiguration } from './prioritylevelconfigurations.defaults.js';
import type {
  PriorityLevelConfiguration,
  PriorityLevelConfigurationSpec,
} from './prioritylevelconfigurations.schema.js';

/** A bootstrap level: named, with a spec, without nulls (it fits the dispatcher's views too). */
export type BootstrapPriorityLevel = BootstrapObject<PriorityLevelConfiguration, PriorityLevelConfigurationSpec>;

function level(name: string, spec: NoNulls<PriorityLevelConfigurationSpec>): BootstrapPriorityLevel {
  return deepFreeze({
    apiVersion: FLOWCONTROL_V1,
    kind: 'PriorityLevelConfiguration',
    metadata: { name, annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' } },
    spec,
  });
}

/** A Limited level that queues: `queues` queues, hands of `handSize`, 50 requests per queue. */
function queued(name: string, shares: number, lendablePercent: number, queues: number, handSize: number) {
  return level(name, {
    type: 'Limited',
    limited: {
      nominalConcurrencyShares: shares,
      lendablePercent,
      limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } },
    },
  });
}

/** `exempt` and `catch-all`, which the server keeps at these specs (an operator may tune exempt's `spec.exempt`). */
export const MANDATORY_PRIORITY_LEVELS: readonly BootstrapPriorityLevel[] = [
  level(CATCH_ALL, {
    type: 'Limited',
    limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } },
  }),
  level(EXEMPT, { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } }),
];

/** The suggested levels, in upstream's order (operators may change or opt out of them). */
export const SUGGESTED_PRIORITY_LEVELS: readonly BootstrapPriorityLevel[] = [
  queued('system', 30, 33, 64, 6),
  queued('node-high', 40, 25, 64, 6),
  queued('leader-election', 10, 0, 16, 4),
  queued('workload-high', 40, 50, 128, 6),
  queued('workload-low', 100, 90, 128, 6),
  queued('global-default', 20, 50, 128, 6),
];

/** The mandatory level named `name`, if it is one. */
export function mandatoryPriorityLevel(name: string): BootstrapPriorityLevel | undefined {
  return MANDATORY_PRIORITY_LEVELS.find((pl) => pl.metadata.name === name);
}

/**
 * The ensurer's plcSpecEqualish: whether `actual`'s spec is `expected`'s once `expected` is
 * defaulted, as Go compares specs; for `exempt`, whatever `actual` sets in `spec.exempt` counts
 * as equal (an operator may tune it), but not its absence.
 */
export function priorityLevelSpecEqualish(
  expected: PriorityLevelConfiguration,
  actual: PriorityLevelConfiguration,
): boolean {
  const defaulted = structuredClone(expected);
  defaultPriorityLevelConfiguration(defaulted);
  if (expected.metadata.name === EXEMPT && defaulted.spec?.exempt) {
    const tuned = actual.spec?.exempt;
    if (!tuned) return false;
    defaulted.spec.exempt = {
      nominalConcurrencyShares: tuned.nominalConcurrencyShares,
      lendablePercent: tuned.lendablePercent,
    };
  }
  return specsEqual(defaulted.spec, actual.spec);
}
