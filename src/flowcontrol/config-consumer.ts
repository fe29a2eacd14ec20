/**
 * The configuration consumer (upstream apf_controller.go's informers and status writer): it
 * mirrors the stored PriorityLevelConfiguration and FlowSchema objects, hands every change to
 * the dispatcher (coalesced: one digest per turn of the event loop however many events came),
 * and writes each FlowSchema's `Dangling` condition through `/status` when it differs from what
 * the object says. Every replica runs one; replicas agree on the condition, so a write made by
 * one is a no-op for the others. Until the first lists arrive, the configuration given at
 * construction (the bootstrap objects) is in force.
 */
import type { Logger } from 'pino';
import { errorMessage } from '../api/error-message.js';
import { rfc3339, type ApiObject } from '../api/object.js';
import type { GenericStore } from '../registry/generic-store.js';
import { mirror, type MirrorHandlers } from '../registry/mirror.js';
import { hasDangling, type DanglingUpdate, type FlowControl } from './flow-control.js';
import { nameOf, type FlowSchemaView, type PriorityLevelView } from './types.js';

export interface ConfigStores {
  readonly priorityLevels: GenericStore;
  readonly flowSchemas: GenericStore;
}

/** See the file comment. */
export class ConfigConsumer {
  private readonly levels = new Map<string, PriorityLevelView>();
  private readonly schemas = new Map<string, FlowSchemaView>();
  private readonly abort = new AbortController();
  private scheduled = false;
  private synced = 0;

  constructor(
    private readonly flowControl: FlowControl,
    private readonly stores: ConfigStores | undefined,
    private readonly logger: Logger,
    initial: { levels: readonly PriorityLevelView[]; schemas: readonly FlowSchemaView[] },
  ) {
    flowControl.configure(initial.levels, initial.schemas);
  }

  /** Start mirroring and the dispatcher's periodic re-division; resolves once both kinds were listed. */
  async start(): Promise<void> {
    this.flowControl.start();
    if (!this.stores) return;
    const signal = this.abort.signal;
    await Promise.all([
      mirror(this.stores.priorityLevels, this.handlers(this.levels), signal, this.logger),
      mirror(this.stores.flowSchemas, this.handlers(this.schemas), signal, this.logger),
    ]);
  }

  stop(): void {
    this.abort.abort();
    this.flowControl.stop();
  }

  private handlers<T extends PriorityLevelView | FlowSchemaView>(into: Map<string, T>): MirrorHandlers<ApiObject> {
    return {
      onReset: (objects) => {
        into.clear();
        for (const o of objects) into.set(o.metadata.name ?? '', o as unknown as T);
        this.synced++;
        this.schedule();
      },
      onEvent: (ev) => {
        const name = ev.object.metadata.name ?? '';
        if (ev.type === 'DELETED') into.delete(name);
        else if (ev.type === 'ADDED' || ev.type === 'MODIFIED') into.set(name, ev.object as unknown as T);
        else return;
        this.schedule();
      },
    };
  }

  /** Digest once the current burst of events has been taken in (after both kinds were listed). */
  private schedule(): void {
    if (this.scheduled || this.synced < 2) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.abort.signal.aborted) return;
      const updates = this.flowControl.configure([...this.levels.values()], [...this.schemas.values()]);
      for (const u of updates) void this.writeDangling(u);
    });
  }

  private async writeDangling({ schema, condition }: DanglingUpdate): Promise<void> {
    const store = this.stores?.flowSchemas;
    if (!store) return;
    const status = store.def.subresources.find((s) => s.name === 'status');
    try {
      await store.update(
        '',
        nameOf(schema),
        (latest) => {
          const fs = latest as unknown as FlowSchemaView;
          const others = (fs.status?.conditions ?? []).filter((c) => c.type !== 'Dangling');
          if (hasDangling(fs, condition)) return latest;
          // Upstream stamps the condition with the time of every rewrite.
          const written = { ...condition, lastTransitionTime: rfc3339() };
          return { ...latest, status: { ...fs.status, conditions: [...others, written] } } as ApiObject;
        },
        status,
      );
    } catch (err) {
      this.logger.debug({ flowSchema: nameOf(schema), err: errorMessage(err) }, 'FlowSchema status not written');
    }
  }
}
