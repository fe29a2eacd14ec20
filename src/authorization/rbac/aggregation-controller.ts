/**
 * The ClusterRole aggregation controller (upstream pkg/controller/clusterroleaggregation): a
 * ClusterRole with an `aggregationRule` gets as its rules the rules of every other ClusterRole
 * whose labels match one of its `clusterRoleSelectors`, taken in name order without duplicates.
 * Aggregated roles may be aggregated again (admin takes edit, which takes view): a change syncs
 * every aggregated role until nothing changes. Runs on the leader.
 */
import type { Logger } from 'pino';
import type { WatchEvent } from '../../storage/types.js';
import { labelSelectorOf, matchesLabels } from '../../api/label-selector.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { mirror } from '../../registry/mirror.js';
import { SERVER_WRITER } from '../../registry/hooks.js';
import { errorMessage } from '../../api/error-message.js';

import type { ClusterRole, PolicyRule } from '../../resources/rbac/rbac.schema.js';

export class ClusterRoleAggregator {
  private readonly roles = new Map<string, ClusterRole>();
  private abort = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private syncing = false;

  constructor(
    private readonly store: GenericStore<ClusterRole>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.abort = new AbortController();
    const handlers = {
      onReset: (objects: readonly ClusterRole[]) => {
        this.roles.clear();
        for (const o of objects) this.roles.set(o.metadata.name!, o);
        this.schedule(0);
      },
      onEvent: (ev: WatchEvent<ClusterRole>) => {
        if (ev.type === 'DELETED') this.roles.delete(ev.object.metadata.name!);
        else if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.roles.set(ev.object.metadata.name!, ev.object);
        this.schedule(0);
      },
    };
    void mirror(this.store, handlers, this.abort.signal, this.logger);
  }

  stop(): void {
    this.abort.abort();
    clearTimeout(this.timer);
  }

  /** The rules `role` aggregates from the roles known now (upstream's order and dedupe). */
  aggregatedRules(role: ClusterRole): PolicyRule[] {
    const selectors = (role.aggregationRule?.clusterRoleSelectors ?? []).map((s) => {
      try {
        return labelSelectorOf(s);
      } catch {
        return null;
      }
    });
    const rules: PolicyRule[] = [];
    const seen = new Set<string>();
    for (const name of [...this.roles.keys()].sort()) {
      const other = this.roles.get(name)!;
      if (name === role.metadata.name || !selectors.some((s) => s && matchesLabels(s, other.metadata.labels))) continue;
      for (const rule of other.rules ?? []) {
        const key = JSON.stringify(rule);
        if (seen.has(key)) continue;
        rules.push(rule);
        seen.add(key);
      }
    }
    return rules;
  }

  private schedule(ms: number): void {
    if (this.timer || this.abort.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.sync();
    }, ms);
  }

  private async sync(): Promise<void> {
    if (this.syncing) return this.schedule(100);
    this.syncing = true;
    try {
      for (const role of [...this.roles.values()]) {
        if (!role.aggregationRule || this.abort.signal.aborted) continue;
        const rules = this.aggregatedRules(role);
        if (JSON.stringify(rules) === JSON.stringify(role.rules ?? [])) continue;
        await this.store.update('', role.metadata.name!, (latest) => ({ ...latest, rules }), undefined, {
          user: SERVER_WRITER,
        });
      }
    } catch (err) {
      this.logger.warn({ err: errorMessage(err) }, 'cluster role aggregation failed; retrying');
      this.schedule(1000);
    } finally {
      this.syncing = false;
    }
  }
}
