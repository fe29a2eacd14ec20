/**
 * A CustomResourceDefinition's conversion webhook client (upstream apiextensions-apiserver 1.33
 * pkg/apiserver/conversion/webhook_converter.go webhookConverter.Convert, with k8s.io/apiserver
 * pkg/util/webhook client.go for the call): the ConversionReview (conversion-plan.ts) POSTed
 * over HTTPS to `spec.conversion.webhook.clientConfig` (a URL, or a Service resolved to an
 * endpoint as the admission webhooks' calls are), verified with its `caBundle`, within
 * upstream's 30 s client timeout (`?timeout=30s` on the URL), then checked and applied.
 * Failures are ConversionFailure with upstream's messages (`conversion webhook for
 * stable.example.com/v2, Kind=CronTab failed: Post "https://...": ...`), counted in the
 * conversion webhook metrics.
 */
import { randomUuid } from '../../api/uuid.js';
import { CallError, postJson } from '../../admission/webhooks/call.js';
import type { ServiceResolver } from '../../admission/webhooks/service-resolver.js';
import { clientConfigTarget, type WebhookClientConfig } from '../../admission/webhooks/target.js';
import type { CustomResourceDefinition } from '../../resources/customresourcedefinitions/customresourcedefinitions.schema.js';
import {
  callFailure,
  finishWebhookConversion,
  planWebhookConversion,
} from '../../resources/customresources/conversion-plan.js';
import { ConversionFailure } from '../../resources/customresources/conversion-review.js';
import { isEmptyObject, type ConversionInput } from '../../resources/customresources/conversion-result.js';
import type { ConversionMetrics } from './metrics.js';

/** Upstream's webhook client timeout (authentication.go setGlobalDefaults: 30 s). */
export const CONVERSION_WEBHOOK_TIMEOUT_SECONDS = 30;

/** What a webhook converter needs besides the definition. */
export interface WebhookConverterOptions {
  /** Resolves a Service reference to an endpoint (registryServiceResolver). */
  readonly resolve: ServiceResolver;
  /** Where outcomes are counted; none: not counted. */
  readonly metrics?: ConversionMetrics;
  /** The call's deadline in seconds (default 30, upstream's; tests shorten it). */
  readonly timeoutSeconds?: number;
}

/** Converts custom objects between a definition's versions. */
export interface InputConverter {
  /**
   * `input` (one object or a list, never changed) converted to `desiredApiVersion`: the same
   * form (object or list) with new objects. Throws ConversionFailure with upstream's message.
   */
  convert(input: ConversionInput, desiredApiVersion: string): Promise<ConversionInput>;
}

/**
 * The webhook converter of `crd` (its `spec.conversion.webhook`; throws ConversionFailure when
 * the definition has none, which validation forbids for the Webhook strategy).
 */
export function webhookConverter(crd: CustomResourceDefinition, opts: WebhookConverterOptions): InputConverter {
  const webhook = crd.spec.conversion?.webhook;
  if (!webhook?.clientConfig)
    throw new ConversionFailure(`conversion webhook for ${crd.metadata.name ?? ''} has no clientConfig`);
  const clientConfig: WebhookClientConfig = webhook.clientConfig;
  const versions = [...(webhook.conversionReviewVersions ?? [])];
  const timeoutSeconds = opts.timeoutSeconds ?? CONVERSION_WEBHOOK_TIMEOUT_SECONDS;
  const convert = async (input: ConversionInput, desired: string): Promise<ConversionInput> => {
    const plan = planWebhookConversion(input, desired, versions, randomUuid());
    if ('done' in plan) {
      // Upstream counts a conversion with nothing to send as a success; an empty object not at all.
      if (!isEmptyObject(input)) opts.metrics?.observeRequest('success', 0);
      return plan.done;
    }
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      let answer: Record<string, unknown>;
      try {
        const target = await clientConfigTarget(clientConfig, timeoutSeconds, opts.resolve);
        answer = await postJson(target, JSON.stringify(plan.review), timeoutSeconds * 1000, { kindOptional: true });
      } catch (err) {
        if (err instanceof CallError) throw callFailure(input, err.message);
        throw err;
      }
      const out = finishWebhookConversion(input, desired, plan, answer);
      opts.metrics?.observeRequest('success', seconds());
      return out;
    } catch (err) {
      if (err instanceof ConversionFailure && err.failureType) opts.metrics?.observeRequest(err.failureType, seconds());
      throw err;
    }
  };
  return { convert };
}
