/**
 * API Priority and Fairness as the server composes it: the dispatcher sized by
 * --max-requests-inflight plus --max-mutating-requests-inflight, its metrics, the config consumer
 * over the stored FlowSchemas and PriorityLevelConfigurations (the bootstrap configuration in
 * force until they are read), and the work estimator's sources: each resource's object count
 * from its watch cache, and the watches open on this server per resource.
 */
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { GenericStore } from '../registry/generic-store.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { MANDATORY_FLOW_SCHEMAS, SUGGESTED_FLOW_SCHEMAS } from '../resources/flowschemas/bootstrap.js';
import { flowSchemas } from '../resources/flowschemas/flowschemas.resource.js';
import {
  MANDATORY_PRIORITY_LEVELS,
  SUGGESTED_PRIORITY_LEVELS,
} from '../resources/prioritylevelconfigurations/bootstrap.js';
import { priorityLevelConfigurations } from '../resources/prioritylevelconfigurations/prioritylevelconfigurations.resource.js';
import type { Cacher } from '../storage/cacher/cacher.js';
import type { ObjectStorage } from '../storage/types.js';
import { ConfigConsumer } from './config-consumer.js';
import { FlowControl } from './flow-control.js';
import { createFlowControlMetrics, type FlowControlMetrics } from './metrics.js';
import type { WorkEstimatorSources } from './work-estimator.js';

export interface BuiltFlowControl {
  readonly flowControl: FlowControl;
  readonly metrics: FlowControlMetrics;
  readonly sources: WorkEstimatorSources;
  readonly consumer: ConfigConsumer;
  /** Note a watch opened (+1) or ended (-1) on `store`. */
  watchCount(delta: number, store: GenericStore): void;
}

/** Build it; `cachers` are the watch caches (empty with --watch-cache=false). */
export function buildFlowControl(
  limits: { readonly readOnly: number; readonly mutating: number },
  registry: ResourceRegistry,
  storage: ObjectStorage,
  cachers: readonly Cacher[],
  metricsRegistry: Registry,
  logger: Logger,
): BuiltFlowControl {
  const metrics = createFlowControlMetrics(metricsRegistry);
  const flowControl = new FlowControl({
    serverConcurrencyLimit: limits.readOnly + limits.mutating,
    metrics,
    onBrokenLevel: (message) => logger.warn(`ignoring PriorityLevelConfiguration ${message}`),
  });
  const cacheOf = new Map<string, Cacher>();
  const byPrefix = new Map(cachers.map((c) => [c.fullPrefix, c]));
  for (const s of registry.all()) {
    const cacher = byPrefix.get(storage.fullKey(s.keyPrefix('')));
    if (cacher) cacheOf.set(`${s.def.group}/${s.def.plural}`, cacher);
  }
  const watches = new Map<string, number>();
  const priorityLevels = registry.find(priorityLevelConfigurations);
  const schemas = registry.find(flowSchemas);
  const consumer = new ConfigConsumer(
    flowControl,
    priorityLevels && schemas ? { priorityLevels, flowSchemas: schemas } : undefined,
    logger,
    {
      levels: [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS],
      schemas: [...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS],
    },
  );
  return {
    flowControl,
    metrics,
    consumer,
    sources: {
      objectCount: (group, resource) => {
        const cacher = cacheOf.get(`${group}/${resource}`);
        return cacher?.ready ? cacher.cache.size : undefined;
      },
      watchCount: (group, resource) => watches.get(`${group}/${resource}`) ?? 0,
    },
    watchCount: (delta, store) => {
      const key = `${store.def.group}/${store.def.plural}`;
      watches.set(key, (watches.get(key) ?? 0) + delta);
    },
  };
}
