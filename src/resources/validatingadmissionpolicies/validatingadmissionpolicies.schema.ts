/**
 * ValidatingAdmissionPolicy fields (k8s.io/api admissionregistration/v1 types.go, 1.33): the
 * spec (paramKind, matchConstraints, validations and audit annotations, both atomic lists,
 * failurePolicy, match conditions and variables merged by name) and the status the type-checking
 * controller writes (observedGeneration, typeChecking, conditions merged by type).
 */
import type { z } from 'zod';
import { kindSchema } from '../../api/meta-schema.js';
import { declared } from '../../api/core/patch-info.js';
import { atomic, int, list, mergedList, obj, reqObj, reqStr, str } from '../../api/core/schema-kit.js';
import type { KindObject } from '../../registry/types.js';
import { conditionSchema } from '../poddisruptionbudgets/poddisruptionbudgets.schema.js';
import {
  atomicList,
  matchResourcesSchema,
  policyMatchConditionsSchema,
} from '../webhook-common/match-resources.schema.js';

const paramKind = atomic(
  obj({
    apiVersion: str.describe('The group/version of the parameter resources ("v1" for the core group). Required.'),
    kind: str.describe('The kind of the parameter resources. Required.'),
  }),
);

const validation = reqObj({
  expression: reqStr.describe(
    "A CEL expression that must evaluate to true for the request to pass. It sees object (null on DELETE), oldObject (null on CREATE), request, params (with a paramKind), namespaceObject (null for cluster-scoped resources), variables, authorizer and authorizer.requestResource. Of the object's metadata only apiVersion, kind, metadata.name and metadata.generateName are visible; property names are escaped ('__' as '__underscores__', '.' as '__dot__', '-' as '__dash__', '/' as '__slash__', CEL keywords as '__{keyword}__'). Lists of type set or map compare and concatenate by their list type. Required.",
  ),
  message: str.describe(
    'The message returned when the validation fails; must not contain line breaks, and is required when the expression has any. Unset: "failed expression: {expression}".',
  ),
  reason: str.describe(
    'The reason, and so the HTTP code, of the response when this is the first validation to fail: Unauthorized, Forbidden, Invalid or RequestEntityTooLarge (the default Invalid).',
  ),
  messageExpression: str.describe(
    'A CEL expression giving the failure message (a string); used instead of message when both are set. A runtime error, an empty or blank result, or one with line breaks falls back to message. It sees what expression sees except authorizer and authorizer.requestResource. Example: "object.x must be less than max ("+string(params.max)+")".',
  ),
});

const variable = atomic(
  reqObj({
    name: reqStr.describe(
      'The name of the variable, a CEL identifier unique among the variables; other expressions read it as variables.<name>.',
    ),
    expression: reqStr.describe(
      'The CEL expression giving the value of the variable; it sees what validation expressions see, and the variables defined before it.',
    ),
  }),
);

const auditAnnotation = reqObj({
  key: reqStr.describe(
    'The audit annotation key, unique in the policy: a qualified name of at most 63 bytes. The annotation is recorded as "{policy name}/{key}"; when a webhook of the same name writes the same key first, this one is dropped. Required.',
  ),
  valueExpression: reqStr.describe(
    'A CEL expression giving the annotation value: a string (recorded) or null or an empty string (omitted). At most 5 KiB; a value over 10 KiB is truncated. The distinct values of every matching binding are joined with commas. Required.',
  ),
});

const expressionWarning = reqObj({
  fieldRef: reqStr.describe('The path of the field holding the expression, e.g. "spec.validations[0].expression".'),
  warning: reqStr.describe(
    'What type checking found, readable by people: per line, the type checked against and the error.',
  ),
});

/** ValidatingAdmissionPolicySpec. */
const spec = obj({
  paramKind: paramKind.describe(
    'The kind of the resources that parameterize this policy. Absent: the policy has no parameters and its expressions have no params. A kind that does not exist makes the policy misconfigured (the failure policy applies); a binding without paramRef gives params null.',
  ),
  matchConstraints: matchResourcesSchema.describe(
    'The resources this policy validates: it cares about a request that matches all of these constraints. A policy may not match ValidatingAdmissionPolicies or their bindings. Required.',
  ),
  validations: atomicList(validation).describe(
    'The CEL validations applied to a matching request. Validations and auditAnnotations may not both be empty.',
  ),
  failurePolicy: str.describe(
    "What happens when evaluation fails (parse, type check or runtime errors, a misconfigured policy or binding): Ignore or Fail (the default). It does not govern validations that evaluate to false; with Fail, the binding's validationActions say how failures are enforced.",
  ),
  auditAnnotations: atomicList(auditAnnotation).describe(
    "CEL expressions whose values become audit annotations of the request's audit event. Validations and auditAnnotations may not both be empty.",
  ),
  matchConditions: policyMatchConditionsSchema,
  variables: mergedList(variable, { key: 'name' }).describe(
    'Named CEL expressions the other expressions (not the match conditions, evaluated first) read as variables.<name>; each may use those before it, so the list is ordered and acyclic.',
  ),
});

/** ValidatingAdmissionPolicyStatus. */
const status = obj({
  observedGeneration: int.describe('The generation of the spec the controller last observed.'),
  typeChecking: obj({
    expressionWarnings: atomicList(expressionWarning).describe('The type-checking warnings of each expression.'),
  }).describe('What type checking found in each expression; present once type checking is complete.'),
  conditions: declared(list(conditionSchema), { listType: 'map', listMapKeys: ['type'] }).describe(
    "The latest observations of the policy's state.",
  ),
});

export const validatingAdmissionPolicySchema = kindSchema({
  spec: spec.describe('The desired behaviour of the ValidatingAdmissionPolicy.'),
  status: status.describe(
    'What the server observed of the policy, such as type-checking warnings showing whether it behaves as expected. Written by the system; read-only.',
  ),
});

export type ValidatingAdmissionPolicy = KindObject<typeof validatingAdmissionPolicySchema>;
export type PolicySpec = NonNullable<ValidatingAdmissionPolicy['spec']>;
export type PolicyStatus = NonNullable<ValidatingAdmissionPolicy['status']>;
export type PolicyValidation = z.infer<typeof validation>;
export type PolicyVariable = z.infer<typeof variable>;
export type PolicyAuditAnnotation = z.infer<typeof auditAnnotation>;
