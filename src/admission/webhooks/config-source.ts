/**
 * The webhook configurations every replica keeps in memory (upstream k8s.io/apiserver
 * pkg/admission/configuration mutating_webhook_manager.go and validating_webhook_manager.go):
 * the admissionregistration.k8s.io/v1 Mutating- and ValidatingWebhookConfigurations, mirrored
 * from their stores (list, then watch), their webhooks ordered by configuration name, then in
 * each configuration's order, each with the uid `<configuration>/<webhook>/<index>`.
 */
import type { Logger } from 'pino';
import { mirror } from '../../registry/mirror.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { mutatingWebhookConfigurations } from '../../resources/mutatingwebhookconfigurations/mutatingwebhookconfigurations.resource.js';
import { validatingWebhookConfigurations } from '../../resources/validatingwebhookconfigurations/validatingwebhookconfigurations.resource.js';
import type { WebhookConfiguration } from '../../resources/webhook-common/webhook.schema.js';
import type { WatchEvent } from '../../storage/types.js';
import type { RegisteredWebhook, WebhookSource } from './types.js';
import { FirstRead } from '../first-read.js';

/** One kind's configurations by name, and its webhooks in order (rebuilt on every change). */
class ConfigurationSet {
  private readonly byName = new Map<string, WebhookConfiguration>();
  private ordered: readonly RegisteredWebhook[] = [];

  constructor(private readonly mutating: boolean) {}

  get webhooks(): readonly RegisteredWebhook[] {
    return this.ordered;
  }

  reset(objects: readonly WebhookConfiguration[]): void {
    this.byName.clear();
    for (const o of objects) this.byName.set(o.metadata.name ?? '', o);
    this.rebuild();
  }

  apply(ev: WatchEvent<WebhookConfiguration>): void {
    const name = ev.object.metadata.name ?? '';
    if (ev.type === 'DELETED') this.byName.delete(name);
    else if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.byName.set(name, ev.object);
    else return;
    this.rebuild();
  }

  private rebuild(): void {
    const names = [...this.byName.keys()].sort();
    this.ordered = names.flatMap((configurationName) =>
      (this.byName.get(configurationName)!.webhooks ?? []).map((webhook, i) => ({
        uid: `${configurationName}/${webhook.name}/${i}`,
        configurationName,
        webhook,
        mutating: this.mutating,
      })),
    );
  }
}

/** The configurations of both kinds, kept current from the registry's stores. */
export class WebhookConfigSource implements WebhookSource {
  private readonly sets = { mutating: new ConfigurationSet(true), validating: new ConfigurationSet(false) };
  private abort?: AbortController;
  private readonly firstRead = new FirstRead();

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
  ) {}

  /** Begin mirroring (idempotent). */
  start(): void {
    if (this.abort) return;
    const abort = (this.abort = new AbortController());
    const follow = (store: GenericStore<WebhookConfiguration>, set: ConfigurationSet) =>
      mirror(
        store,
        {
          onReset: (objs) => set.reset(objs),
          onEvent: (ev) => set.apply(ev),
          onError: (err) => this.firstRead.fail(err),
        },
        abort.signal,
        this.logger,
      );
    const mutating = this.registry.find(mutatingWebhookConfigurations);
    const validating = this.registry.find(validatingWebhookConfigurations);
    this.firstRead.begin(
      Promise.all([
        mutating ? follow(mutating, this.sets.mutating) : undefined,
        validating ? follow(validating, this.sets.validating) : undefined,
      ]),
    );
  }

  /** Stop mirroring; the webhooks known are kept. */
  stop(): void {
    this.abort?.abort();
  }

  /** Whether the first read of both kinds has completed, waiting up to 10 s (false: not started or not read). */
  ready(): Promise<boolean> {
    return this.firstRead.ready();
  }

  /**
   * Why the configurations could not be read yet (storage unavailable), or undefined: a write
   * refused for want of them answers this error rather than `not yet ready to handle request`,
   * so a server whose storage fails at start says why.
   */
  failureOfFirstRead(): unknown {
    return this.firstRead.failureOfFirstRead();
  }

  mutating(): readonly RegisteredWebhook[] {
    return this.sets.mutating.webhooks;
  }

  validating(): readonly RegisteredWebhook[] {
    return this.sets.validating.webhooks;
  }
}
