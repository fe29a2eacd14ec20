/**
 * The rows of one webhook configuration kind: admissionregistration.k8s.io/v1 (the storage
 * version) and v1beta1, and the spec's admissionregistration.ck.io/v1beta1, over one storage.
 * Cluster-scoped, category `api-extensions` (as upstream), no subresources. The versions have
 * the same fields: a conversion changes only the apiVersion, each version applying its own
 * defaults (webhook.defaults.ts) to what is written through it, and its own create options.
 */
import type { z } from 'zod';
import type { ProtoMessages } from '../../api/protobuf/messages.js';
import type { KindObject, ResourceDefinition, Strategy } from '../../registry/types.js';
import { defineResource } from '../define.js';
import { defaultWebhooks } from './webhook.defaults.js';
import type { WebhookConfiguration } from './webhook.schema.js';
import { webhookConfigurationPrinter } from './webhook.table.js';
import { createOptions, updateOptions, validateWebhookConfiguration } from './webhook.validation.js';

export interface WebhookKind<S extends z.ZodType> {
  readonly kind: string;
  readonly plural: string;
  readonly description: string;
  readonly schema: S;
  readonly mutating: boolean;
  readonly messages: (apiVersion: string) => ProtoMessages;
}

const STORAGE_GROUP = 'admissionregistration.k8s.io';

function strategy(version: 'v1' | 'v1beta1', mutating: boolean): Strategy<WebhookConfiguration> {
  return {
    ...(version === 'v1' ? { defaults: (obj: WebhookConfiguration) => defaultWebhooks(obj, 'v1', mutating) } : {}),
    validate: (obj) => validateWebhookConfiguration(obj, createOptions(version)),
    validateUpdate: (obj, old) => validateWebhookConfiguration(obj, updateOptions(old)),
  };
}

/** The three rows of `kind`, the storage row first. */
export function webhookRows<S extends z.ZodType>(k: WebhookKind<S>): ResourceDefinition<KindObject<S>>[] {
  const row = (group: string, version: 'v1' | 'v1beta1') =>
    defineResource({
      group,
      version,
      kind: k.kind,
      description: k.description,
      plural: k.plural,
      namespaced: false,
      categories: ['api-extensions'],
      storagePrefix: k.plural,
      schema: k.schema,
      printer: webhookConfigurationPrinter as ResourceDefinition<KindObject<S>>['printer'],
      protobuf: k.messages(`${group}/${version}`),
      strategy: strategy(version, k.mutating) as Strategy<KindObject<S>>,
      ...(version === 'v1'
        ? {}
        : {
            conversion: {
              defaults: (obj: WebhookConfiguration) => defaultWebhooks(obj, 'v1beta1', k.mutating),
              toStorage: (obj) => ({ ...obj, apiVersion: `${STORAGE_GROUP}/v1` }),
              fromStorage: (obj) => ({ ...obj, apiVersion: `${group}/v1beta1` }),
            },
          }),
    });
  return [row(STORAGE_GROUP, 'v1'), row(STORAGE_GROUP, 'v1beta1'), row('admissionregistration.ck.io', 'v1beta1')];
}
