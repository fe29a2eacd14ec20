/**
 * What FlowSchema and PriorityLevelConfiguration share about their status (k8s.io/api
 * flowcontrol/v1 types.go; k8s.io/kubernetes pkg/apis/flowcontrol/validation
 * ValidateFlowSchemaStatus, ValidatePriorityLevelConfigurationStatus; the StatusStrategy of
 * pkg/registry/flowcontrol/flowschema and prioritylevelconfiguration strategy.go): a list of conditions merged by `type` (strategic merge and
 * server-side apply), each type present once and non-empty; a `/status` write changes only the
 * status (metadata and spec kept from the stored object) and is checked by the status rules alone.
 */
import { z } from 'zod';
import { mergedList, obj, str, time } from '../../api/core/schema-kit.js';
import type { ApiObject } from '../../api/object.js';
import { duplicate, required, type FieldError } from '../../api/validation/field-errors.js';
import type { SubresourceDefinition } from '../../registry/types.js';
import { statusSubresource } from '../define.js';

/**
 * The status schema of a flowcontrol kind: `conditions`, merged by type. `what` names the
 * object and `conditionType` an example type in descriptions.
 */
export function conditionsStatus(what: string, conditionType: string) {
  const condition = z.strictObject({
    type: str.describe(`The kind of the condition (${conditionType}, ...).`),
    status: str.describe('Whether the condition holds: True, False or Unknown.'),
    lastTransitionTime: time.describe('When the status of the condition last changed.'),
    reason: str.describe('One CamelCase word saying why the condition last changed.'),
    message: str.describe('A human-readable explanation of the last change.'),
  });
  return obj({
    conditions: mergedList(condition, { key: 'type' }).describe(`The current conditions of the ${what}.`),
  }).describe(`The observed state of the ${what}, written by the server through /status.`);
}

/** The part of an object these rules read. */
interface WithConditions extends ApiObject {
  status?: { conditions?: readonly { type?: string | null }[] | null } | null;
}

/**
 * ValidateFlowSchemaStatus / ValidatePriorityLevelConfigurationStatus: every condition has a
 * type (`status.conditions[i].type: Required value: must not be empty`), and no type appears
 * twice (`Duplicate value`).
 */
export function validateConditions(obj: WithConditions): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (obj.status?.conditions ?? []).forEach((c, i) => {
    const type = c.type ?? '';
    const path = `status.conditions[${i}].type`;
    if (seen.has(type)) errs.push(duplicate(path, type));
    seen.add(type);
    if (!type) errs.push(required(path, 'must not be empty'));
  });
  return errs;
}

/**
 * `/status` of a flowcontrol kind (upstream's StatusStrategy): the stored metadata and spec
 * with the requested status, checked by the status rules only (ValidateXStatusUpdate).
 */
export function conditionsStatusSubresource<T extends WithConditions>(kind: string): SubresourceDefinition<T> {
  return { ...statusSubresource<T>(kind), validateUpdate: (updated) => validateConditions(updated) };
}
