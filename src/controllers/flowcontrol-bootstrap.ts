/**
 * The API Priority and Fairness bootstrap configuration ensurer: upstream's
 * `priority-and-fairness-config-producer` post-start hook (k8s.io/kubernetes
 * pkg/registry/flowcontrol/rest storage_flowcontrol.go with the ensurer package, 1.33), run by
 * the leader. Each pass ensures the suggested PriorityLevelConfigurations and FlowSchemas, then
 * the mandatory ones, then deletes the unwanted ones, as upstream orders it:
 *
 * - a missing bootstrap object is created (field manager
 *   `api-priority-and-fairness-config-producer-v1`), mandatory or suggested: deleting one only
 *   lasts until the next pass;
 * - an existing one is revised as resources/flowcontrol-common/autoupdate.ts decides (mandatory
 *   ones always back to the bootstrap spec, suggested ones only while their
 *   `apf.kubernetes.io/autoupdate-spec` annotation reads true); a write lost to a concurrent
 *   change (409) waits for the next pass;
 * - an object annotated autoupdate true that the bootstrap set no longer names is deleted.
 *
 * The first pass runs when this replica becomes the leader and is retried every second until
 * it succeeds; then a pass runs every minute (upstream's resync period).
 */
import type { Logger } from 'pino';
import { errorMessage } from '../api/error-message.js';
import type { ApiObject } from '../api/object.js';
import { ApiError } from '../errors/api-error.js';
import { deleteObject } from '../registry/deletion.js';
import type { GenericStore } from '../registry/generic-store.js';
import { SERVER_WRITER } from '../registry/hooks.js';
import { buildPredicate } from '../registry/predicate.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { isUnwanted, revision } from '../resources/flowcontrol-common/autoupdate.js';
import {
  MANDATORY_FLOW_SCHEMAS,
  SUGGESTED_FLOW_SCHEMAS,
  flowSchemaSpecEqualish,
} from '../resources/flowschemas/bootstrap.js';
import { flowSchemas } from '../resources/flowschemas/flowschemas.resource.js';
import {
  MANDATORY_PRIORITY_LEVELS,
  SUGGESTED_PRIORITY_LEVELS,
  priorityLevelSpecEqualish,
} from '../resources/prioritylevelconfigurations/bootstrap.js';
import { priorityLevelConfigurations } from '../resources/prioritylevelconfigurations/prioritylevelconfigurations.resource.js';

/** The field manager of the ensurer's writes (upstream's). */
export const FIELD_MANAGER = 'api-priority-and-fairness-config-producer-v1';

/** One kind's bootstrap set, how its specs compare, and its objects as stored when the pass began. */
interface KindSet<T extends ApiObject> {
  readonly store: GenericStore<T>;
  readonly mandatory: readonly T[];
  readonly suggested: readonly T[];
  readonly specEqualish: (expected: T, actual: T) => boolean;
  readonly existing: ReadonlyMap<string, T>;
}

export class FlowcontrolBootstrap {
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | undefined;

  /**
   * @param intervalMs time between passes once the first has succeeded (upstream: one minute)
   * @param retryMs time between attempts of the first pass (upstream: one second)
   */
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly intervalMs = 60_000,
    private readonly retryMs = 1000,
  ) {}

  /** Start the passes; returns at once. */
  start(): void {
    this.schedule(0, false);
  }

  stop(): void {
    this.abort.abort();
    clearTimeout(this.timer);
  }

  private schedule(delayMs: number, succeeded: boolean): void {
    if (this.abort.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.ensure().then(
        () => this.schedule(this.intervalMs, true),
        (err: unknown) => {
          this.logger.warn({ err: errorMessage(err) }, 'APF bootstrap configuration: pass failed; retrying');
          this.schedule(succeeded ? this.intervalMs : this.retryMs, succeeded);
        },
      );
    }, delayMs);
    this.timer.unref?.();
  }

  /** One pass (upstream's `ensure`). Throws the first storage or API failure. */
  async ensure(): Promise<void> {
    const levels = await this.kindSet(
      this.registry.of(priorityLevelConfigurations),
      MANDATORY_PRIORITY_LEVELS,
      SUGGESTED_PRIORITY_LEVELS,
      priorityLevelSpecEqualish,
    );
    const schemas = await this.kindSet(
      this.registry.of(flowSchemas),
      MANDATORY_FLOW_SCHEMAS,
      SUGGESTED_FLOW_SCHEMAS,
      flowSchemaSpecEqualish,
    );
    for (const bootstrap of levels.suggested) await this.ensureOne(levels, bootstrap, false);
    for (const bootstrap of schemas.suggested) await this.ensureOne(schemas, bootstrap, false);
    for (const bootstrap of levels.mandatory) await this.ensureOne(levels, bootstrap, true);
    for (const bootstrap of schemas.mandatory) await this.ensureOne(schemas, bootstrap, true);
    await this.removeUnwanted(schemas);
    await this.removeUnwanted(levels);
  }

  /** A kind's bootstrap set with its stored objects, read once per pass (upstream reads its informers' caches). */
  private async kindSet<T extends ApiObject>(
    store: GenericStore<T>,
    mandatory: readonly T[],
    suggested: readonly T[],
    specEqualish: (expected: T, actual: T) => boolean,
  ): Promise<KindSet<T>> {
    const list = await store.list('', { predicate: buildPredicate(store.def) });
    const existing = new Map(list.items.map((o) => [o.metadata.name ?? '', o]));
    return { store, mandatory, suggested, specEqualish, existing };
  }

  /** EnsureConfiguration: create `bootstrap` when missing, else write its revision when one is due. */
  private async ensureOne<T extends ApiObject>(set: KindSet<T>, bootstrap: T, mandatory: boolean): Promise<void> {
    const name = bootstrap.metadata.name ?? '';
    const what = { kind: set.store.def.kind, name, mandatory };
    const current = set.existing.get(name);
    if (!current) {
      await set.store
        .create('', structuredClone(bootstrap), { user: SERVER_WRITER, fieldManager: FIELD_MANAGER })
        .then(() => this.logger.debug(what, 'APF bootstrap configuration: created'), ignore(409));
      return;
    }
    const revised = revision(current, bootstrap, mandatory, set.specEqualish);
    if (!revised) return;
    await set.store
      .update('', name, () => revised, undefined, { user: SERVER_WRITER, fieldManager: FIELD_MANAGER })
      .then(() => this.logger.info(what, 'APF bootstrap configuration: updated'), ignore(404, 409));
  }

  /** RemoveUnwantedObjects: delete what the bootstrap set no longer names, when annotated autoupdate true. */
  private async removeUnwanted<T extends ApiObject>(set: KindSet<T>): Promise<void> {
    const names = new Set([...set.mandatory, ...set.suggested].map((o) => o.metadata.name ?? ''));
    for (const obj of set.existing.values()) {
      if (!isUnwanted(obj, names)) continue;
      const name = obj.metadata.name ?? '';
      await deleteObject(set.store, '', name, { preconditions: { uid: obj.metadata.uid ?? undefined } }).then(
        () =>
          this.logger.info(
            { kind: set.store.def.kind, name },
            'APF bootstrap configuration: deleted an unwanted object',
          ),
        ignore(404, 409),
      );
    }
  }
}

/** A catch handler that lets the given API error codes pass. */
function ignore(...codes: number[]): (err: unknown) => void {
  return (err) => {
    if (!(err instanceof ApiError && codes.includes(err.code))) throw err;
  };
}
