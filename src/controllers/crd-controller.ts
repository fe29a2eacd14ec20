/**
 * CustomResourceDefinitions at run time, on every replica (upstream's apiextensions-apiserver
 * runs its controllers in every server): a watch of the definitions that
 * - serves each definition's versions once its names are accepted (upstream crdHandler serves
 *   a CRD whose NamesAccepted or Established condition is True), and withdraws them when it is
 *   deleted, so every replica serves a new definition as soon as its watch sees it;
 * - accepts names and establishes (naming and establishing controllers, see
 *   resources/customresources/naming.ts);
 * - empties a definition being deleted (the `customresourcecleanup.apiextensions.k8s.io`
 *   finalizer, upstream pkg/controller/finalizer/crd_finalizer.go): every instance is deleted,
 *   and the finalizer removed once none is left.
 * Every step is idempotent: replicas doing the same work at once only lose a conflict.
 */
import type { Logger } from 'pino';
import { errorMessage } from '../api/error-message.js';
import { ApiError } from '../errors/api-error.js';
import { finalizeDelete } from '../registry/deletion.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import {
  apiApprovalCondition,
  type CrdCondition,
  CUSTOM_RESOURCE_CLEANUP_FINALIZER,
  findCrdCondition,
  isCrdConditionEquivalent,
  isCrdConditionTrue,
  removeCrdCondition,
  setCrdCondition,
} from '../resources/customresourcedefinitions/conditions.js';
import { nonStructuralSchemaCondition } from '../resources/customresourcedefinitions/nonstructural-condition.js';
import { customResourceDefinitions } from '../resources/customresourcedefinitions/customresourcedefinitions.resource.js';
import type { CustomResourceDefinition } from '../resources/customresourcedefinitions/customresourcedefinitions.schema.js';
import { calculateNames } from '../resources/customresources/naming.js';
import { customResourceRows } from '../resources/customresources/rows.js';
import type { ObjectConverter } from '../storage/converting-storage.js';
import { customResourceConverter } from './crd-conversion/converter.js';
import type { WebhookConverterOptions } from './crd-conversion/webhook-converter.js';
import { emptyCustomResource } from './crd-finalizer.js';
import { resyncLoop, watchLoop } from './watch-loop.js';

export class CustomResourceDefinitionController {
  private readonly abort = new AbortController();
  /** The definitions as last seen, by name. */
  private readonly known = new Map<string, CustomResourceDefinition>();
  /** Names to look at again, and whether a pass is running. */
  private readonly pending = new Set<string>();
  private running = false;
  /** What each definition serves now (its rows' identity comes from this object). */
  private readonly served = new Map<string, CustomResourceDefinition>();

  /**
   * @param conversion what conversion webhooks need (the Service resolver, metrics); without
   *   it, definitions with `conversion.strategy: Webhook` are served without conversion.
   */
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly resyncMs = 30_000,
    private readonly conversion?: WebhookConverterOptions,
  ) {}

  /** Start watching; returns at once. */
  start(): void {
    void watchLoop(
      this.registry.of(customResourceDefinitions),
      this.abort.signal,
      (ev) => {
        const name = ev.object.metadata.name ?? '';
        if (ev.type === 'DELETED') this.known.delete(name);
        else if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.known.set(name, ev.object);
        else return;
        this.enqueue(name);
      },
      this.logger,
    );
    resyncLoop(this.abort.signal, this.resyncMs, async () => {
      for (const name of this.known.keys()) this.enqueue(name);
    });
  }

  /** Stop watching and withdraw nothing (the server is stopping). */
  stop(): void {
    this.abort.abort();
  }

  private enqueue(name: string): void {
    this.pending.add(name);
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.pending.size && !this.abort.signal.aborted) {
        const [name] = this.pending;
        this.pending.delete(name!);
        await this.sync(name!).catch((err: unknown) =>
          this.logger.warn({ crd: name, err: errorMessage(err) }, 'custom resource definition sync failed'),
        );
      }
    } finally {
      this.running = false;
    }
  }

  private async sync(name: string): Promise<void> {
    const crd = this.known.get(name);
    await this.serve(name, crd);
    if (!crd) {
      // A freed name may end another definition's conflict (upstream requeues the group).
      for (const [other, o] of this.known) if (!isCrdConditionTrue(o, 'NamesAccepted')) this.pending.add(other);
      return;
    }
    if (crd.metadata.deletionTimestamp) {
      if ((crd.metadata.finalizers ?? []).includes(CUSTOM_RESOURCE_CLEANUP_FINALIZER)) await this.finalize(crd);
      return;
    }
    await this.acceptNames(crd);
    // Upstream pkg/controller/nonstructuralschema: set while a definition (made through
    // v1beta1) has a schema that is not structural, removed once it is.
    await this.markCondition(crd, 'NonStructuralSchema', nonStructuralSchemaCondition(crd));
    // Upstream pkg/controller/apiapproval: only protected groups have it (groups never change).
    const approval = apiApprovalCondition(crd);
    if (approval) await this.markCondition(crd, approval.type, approval);
  }

  /** Write `condition` of `type` (none: remove it) unless the stored one says the same. */
  private async markCondition(
    crd: CustomResourceDefinition,
    type: string,
    condition: CrdCondition | undefined,
  ): Promise<void> {
    const current = findCrdCondition(crd, type);
    if (condition ? isCrdConditionEquivalent(condition, current) : !current) return;
    await this.writeStatus(crd, (c) => {
      if (condition) setCrdCondition(c, condition);
      else removeCrdCondition(c, type);
    });
  }

  /** Serve `crd`'s versions when its names are accepted; withdraw them when it is gone. */
  private async serve(name: string, crd: CustomResourceDefinition | undefined): Promise<void> {
    const serving =
      crd && (isCrdConditionTrue(crd, 'NamesAccepted') || isCrdConditionTrue(crd, 'Established')) ? crd : undefined;
    const before = this.served.get(name);
    if (before === serving) return;
    if (serving && before && sameServing(before, serving)) return;
    if (serving) this.served.set(name, serving);
    else this.served.delete(name);
    await this.registry.serve(name, serving ? customResourceRows(serving, this.converterOf(serving)) : []);
  }

  /** The conversion webhook of `crd` as storage's converter (undefined: not a Webhook strategy). */
  private converterOf(crd: CustomResourceDefinition): ObjectConverter | undefined {
    if (crd.spec.conversion?.strategy !== 'Webhook' || !this.conversion) return undefined;
    try {
      const converter = customResourceConverter(crd, this.conversion);
      return (objects, apiVersion) => converter.convertObjects(objects, apiVersion);
    } catch (err) {
      // Validation requires a webhook for the Webhook strategy; reads fail as upstream's would.
      const message = errorMessage(err);
      this.logger.error({ crd: crd.metadata.name, err: message }, 'conversion webhook unusable');
      return () => Promise.reject(new ApiError(500, '', message));
    }
  }

  private async acceptNames(crd: CustomResourceDefinition): Promise<void> {
    const names = calculateNames(crd, [...this.known.values()]);
    const now = crd.status ?? {};
    if (
      JSON.stringify(now.acceptedNames ?? null) === JSON.stringify(names.acceptedNames) &&
      isCrdConditionTrue(crd, 'NamesAccepted') === (names.namesAccepted.status === 'True') &&
      isCrdConditionTrue(crd, 'Established') === (names.established.status === 'True')
    )
      return;
    await this.writeStatus(crd, (c) => {
      const status = (c.status ??= {});
      status.acceptedNames = names.acceptedNames;
      setCrdCondition(c, names.namesAccepted);
      setCrdCondition(c, names.established);
    });
    // Names this one took or freed may change others' conflicts (upstream requeueAllOtherGroupCRDs).
    for (const [other, o] of this.known)
      if (o.spec.group === crd.spec.group && other !== crd.metadata.name) this.pending.add(other);
  }

  private async finalize(crd: CustomResourceDefinition): Promise<void> {
    const name = crd.metadata.name ?? '';
    await this.writeStatus(crd, (c) =>
      setCrdCondition(c, {
        type: 'Terminating',
        status: 'True',
        reason: 'InstanceDeletionInProgress',
        message: 'CustomResource deletion is in progress',
      }),
    );
    const condition = isCrdConditionTrue(crd, 'Established')
      ? await emptyCustomResource(this.registry, crd, this.abort.signal)
      : { type: 'Terminating', status: 'False', reason: 'NeverEstablished', message: 'resource was never established' };
    const stored = await this.writeStatus(crd, (c) => {
      setCrdCondition(c, condition);
      if (condition.status === 'False')
        c.metadata.finalizers = (c.metadata.finalizers ?? []).filter((f) => f !== CUSTOM_RESOURCE_CLEANUP_FINALIZER);
    });
    // The last finalizer gone: the definition goes (as an update emptying finalizers deletes).
    if (stored?.metadata.deletionTimestamp && !(stored.metadata.finalizers ?? []).length) {
      await finalizeDelete(this.registry.of(customResourceDefinitions), '', name, {
        preconditions: { uid: stored.metadata.uid },
      }).catch((err: unknown) => {
        if (!(err instanceof ApiError && (err.code === 404 || err.code === 409))) throw err;
      });
      return;
    }
    if (condition.status !== 'False') {
      // Instances remain (their own finalizers): look again in a while, as upstream requeues.
      setTimeout(() => this.enqueue(name), 5000).unref();
    }
  }

  /** Write `change` to the stored definition's status (and finalizers); gone or conflicting: let the watch bring it again. */
  private async writeStatus(
    crd: CustomResourceDefinition,
    change: (c: CustomResourceDefinition) => void,
  ): Promise<CustomResourceDefinition | undefined> {
    try {
      return await this.registry.of(customResourceDefinitions).mutate('', crd.metadata.name ?? '', (current) => {
        const next = structuredClone(current);
        change(next);
        return next;
      });
    } catch (err) {
      if (err instanceof ApiError && (err.code === 404 || err.code === 409)) return undefined;
      throw err;
    }
  }
}

/** Whether two states of a definition serve the same rows (only its spec, accepted names and Terminating matter). */
function sameServing(a: CustomResourceDefinition, b: CustomResourceDefinition): boolean {
  return (
    JSON.stringify(a.spec) === JSON.stringify(b.spec) &&
    JSON.stringify(a.status?.acceptedNames ?? null) === JSON.stringify(b.status?.acceptedNames ?? null) &&
    isCrdConditionTrue(a, 'Terminating') === isCrdConditionTrue(b, 'Terminating')
  );
}
