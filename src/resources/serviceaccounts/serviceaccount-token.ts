/**
 * The `serviceaccounts/token` subresource (upstream pkg/registry/core/serviceaccount/storage
 * token.go, authentication.k8s.io/v1 TokenRequest): a signed token for the service account,
 * for `spec.audiences` (default: the API audiences), valid `spec.expirationSeconds` (default
 * 3600, at least 600), optionally bound to a Pod running as the account or a Secret (the token
 * then ends with that object). Answers 201 with the TokenRequest and `status` {token,
 * expirationTimestamp}; nothing is stored.
 */
import { z } from 'zod';
import type { ApiObject } from '../../api/object.js';
import { kindSchema } from '../../api/meta-schema.js';
import { badRequest, conflict, invalid } from '../../errors/api-error.js';
import type { FieldError } from '../../api/validation/field-errors.js';
import type { CreateAnswer, CreateRequest, KindObject, SubresourceDefinition } from '../../registry/types.js';
import { pods } from '../pods/pods.resource.js';
import { secrets } from '../secrets/secrets.resource.js';
import type { ServiceAccount } from './serviceaccounts.schema.js';

/** A TokenRequest as its schema describes it. */
type TokenRequest = KindObject<typeof tokenRequestSchema>;
type Spec = NonNullable<TokenRequest['spec']>;

const GROUP = 'authentication.k8s.io';
const DEFAULT_SECONDS = 3600;

/** Upstream ValidateTokenRequest. */
function validate(spec: Spec): FieldError[] {
  const seconds = spec.expirationSeconds ?? DEFAULT_SECONDS;
  if (seconds < 600)
    return [
      {
        reason: 'FieldValueInvalid',
        field: 'spec.expirationSeconds',
        message: `Invalid value: ${seconds}: may not specify a duration less than 10 minutes`,
      },
    ];
  if (seconds > 2 ** 32)
    return [
      {
        reason: 'FieldValueTooLong',
        field: 'spec.expirationSeconds',
        message: `Invalid value: ${seconds}: may not specify a duration larger than 2^32 seconds`,
      },
    ];
  return [];
}

export async function tokenRequestCreate(req: CreateRequest<ServiceAccount, TokenRequest>): Promise<CreateAnswer> {
  const name = req.name;
  const meta = req.body.metadata ?? {};
  if (meta.name && meta.name !== name)
    throw invalid(
      'TokenRequest',
      name,
      [
        {
          reason: 'FieldValueInvalid',
          field: 'metadata.name',
          message: `Invalid value: "${meta.name}": must match the service account name if specified`,
        },
      ],
      GROUP,
    );
  const issuer = req.access?.serviceAccountTokens;
  if (!issuer) throw badRequest('the server has no service account signing key');
  const sa = await req.target.get(req.namespace, name);
  const spec: Spec = { ...req.body.spec };
  if (!spec.audiences?.length) spec.audiences = [...issuer.audiences];
  spec.expirationSeconds ??= DEFAULT_SECONDS;
  const errs = validate(spec);
  if (errs.length) throw invalid('TokenRequest', name, errs, GROUP);
  let bound: { kind: 'Pod' | 'Secret'; name: string; uid: string } | undefined;
  const ref = spec.boundObjectRef;
  if (ref) {
    const group = (ref.apiVersion ?? '').includes('/') ? ref.apiVersion!.split('/')[0] : '';
    if (group !== '' || (ref.kind !== 'Pod' && ref.kind !== 'Secret'))
      throw badRequest(`cannot bind token to object of type ${ref.apiVersion ?? ''}, Kind=${ref.kind ?? ''}`);
    let obj: ApiObject;
    if (ref.kind === 'Pod') {
      const pod = await req.store(pods).get(req.namespace, ref.name ?? '');
      if (pod.spec?.serviceAccountName !== name)
        throw badRequest(
          `cannot bind token for serviceaccount "${name}" to pod running with different serviceaccount name.`,
        );
      obj = pod;
    } else {
      obj = await req.store(secrets).get(req.namespace, ref.name ?? '');
    }
    if (ref.uid && ref.uid !== obj.metadata.uid) {
      throw conflict(
        ref.kind,
        ref.name ?? '',
        `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    }
    bound = { kind: ref.kind, name: obj.metadata.name!, uid: obj.metadata.uid! };
  }
  const { token, expirationTimestamp } = await issuer.issue({
    namespace: req.namespace,
    serviceAccount: { name, uid: sa.metadata.uid! },
    bound,
    audiences: spec.audiences,
    expirationSeconds: spec.expirationSeconds,
  });
  const body: ApiObject = {
    kind: 'TokenRequest',
    apiVersion: `${GROUP}/v1`,
    metadata: { name, namespace: req.namespace, creationTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') },
    spec: { ...spec, ...(ref ? { boundObjectRef: ref } : {}) },
    status: { token, expirationTimestamp },
  };
  return { code: 201, body };
}

const optionalString = z.string().optional();

/** TokenRequest fields (authentication.k8s.io/v1). */
export const tokenRequestSchema = kindSchema({
  spec: z
    .looseObject({
      audiences: z.array(z.string()).optional(),
      expirationSeconds: z.number().int().optional(),
      boundObjectRef: z
        .looseObject({ kind: optionalString, apiVersion: optionalString, name: optionalString, uid: optionalString })
        .optional(),
    })
    .optional(),
  status: z.unknown().optional(),
});

/** The subresource row of ServiceAccount. */
export const tokenSubresource: SubresourceDefinition<ServiceAccount, TokenRequest> = {
  name: 'token',
  kind: 'TokenRequest',
  apiVersion: `${GROUP}/v1`,
  verbs: ['create'],
  schema: tokenRequestSchema,
  create: tokenRequestCreate,
};

/** Protobuf messages of TokenRequest (numbers from upstream's k8s.io/api authentication/v1 generated.proto). */
export const tokenRequestMessages = {
  TokenRequest: 'metadata=1:ObjectMeta spec=2:TokenRequestSpec! status=3:TokenRequestStatus!',
  TokenRequestSpec: 'audiences=1:[]string expirationSeconds=4:int64 boundObjectRef=3:BoundObjectReference',
  BoundObjectReference: 'kind=1 apiVersion=2 name=3 uid=4',
  TokenRequestStatus: 'token=1! expirationTimestamp=2:Time!',
};
