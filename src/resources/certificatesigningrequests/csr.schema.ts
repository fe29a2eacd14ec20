/**
 * CertificateSigningRequest fields (k8s.io/api certificates/v1 and v1beta1 types.go): the
 * same fields at both versions, `signerName` required at v1 (v1beta1 defaults it). Status
 * conditions are a list map keyed by `type` for server-side apply, replaced whole by strategic
 * merge patch (no patch strategy upstream); `usages` and `groups` are atomic lists.
 */
import { z } from 'zod';
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { declared } from '../../api/core/patch-info.js';
import { base64, int, list, obj, reqObj, reqStr, str, strList, time } from '../../api/core/schema-kit.js';

const condition = reqObj({
  type: reqStr.describe('Type of the condition. Known conditions are "Approved", "Denied", and "Failed".'),
  status: reqStr.describe(
    'Status of the condition, one of True, False, Unknown. Approved, Denied, and Failed conditions may not be "False" or "Unknown".',
  ),
  reason: str.describe('A brief reason for the request state.'),
  message: str.describe('A human readable message with details about the request state.'),
  lastUpdateTime: time.describe('The time of the last update to this condition.'),
  lastTransitionTime: time.describe(
    "The last time the condition transitioned from one status to another. If unset, when a new condition type is added or an existing condition's status is changed, the server defaults this to the current time.",
  ),
});

const spec = <S extends z.ZodType>(signerName: S) =>
  reqObj({
    request: base64.describe('A base64-encoded PEM-encoded PKCS#10 CERTIFICATE REQUEST. Required, immutable.'),
    signerName: signerName.describe(
      'The requested signer: a qualified name of the form `example.com/signer-name` (kubernetes.io/kube-apiserver-client, kubernetes.io/kube-apiserver-client-kubelet, kubernetes.io/kubelet-serving, or a custom signer). Immutable.',
    ),
    expirationSeconds: int.describe(
      'The requested duration of validity of the issued certificate, at least 600 (10 minutes). The signer may issue a certificate with a different duration.',
    ),
    usages: strList.describe(
      'Key usages requested in the issued certificate ("digital signature", "key encipherment", "client auth", "server auth", ...).',
    ),
    username: str.describe(
      'Name of the user that created the request. Populated by the API server on creation and immutable.',
    ),
    uid: str.describe(
      'UID of the user that created the request. Populated by the API server on creation and immutable.',
    ),
    groups: strList.describe(
      'Group membership of the user that created the request. Populated by the API server on creation and immutable.',
    ),
    extra: z
      .record(z.string(), z.array(z.string()))
      .nullable()
      .optional()
      .describe(
        'Extra attributes of the user that created the request. Populated by the API server on creation and immutable.',
      ),
  });

const status = obj({
  conditions: declared(list(condition), { listType: 'map', listMapKeys: ['type'] }).describe(
    'Applied to the request: "Approved", "Denied" and "Failed" conditions, and others a signer adds.',
  ),
  certificate: base64
    .nullable()
    .optional()
    .describe(
      'The issued certificate: PEM-encoded CERTIFICATE blocks, populated by the signer through the /status subresource after approval. Immutable once set.',
    ),
});

const csrSchemaWith = <S extends z.ZodType>(signerName: S) =>
  kindSchema({
    spec: spec(signerName).describe('The certificate request. Immutable after creation.'),
    status: status.describe('Whether the request is approved or denied, and the issued certificate.'),
  });

/** certificates.k8s.io/v1 (the storage version). */
export const csrSchema = csrSchemaWith(reqStr);
/** certificates.k8s.io/v1beta1 and certificates.ck.io/v1beta1: `signerName` optional (defaulted). */
export const csrV1beta1Schema = csrSchemaWith(str);

/** A CertificateSigningRequest as its schema describes it. */
export type CertificateSigningRequest = KindObject<typeof csrSchema>;
export type CsrCondition = z.infer<typeof condition>;
