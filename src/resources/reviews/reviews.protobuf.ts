/**
 * Protobuf messages of the review kinds (notation in api/protobuf/messages.ts; numbers from
 * upstream's k8s.io/api authorization/v1 and authentication/v1 generated.proto): kubectl sends
 * `auth can-i` and `auth whoami` reviews as protobuf. The `extra` maps are maps of ExtraValue,
 * a message of one string list that JSON writes as the bare list.
 */
import type { MessageSet, ProtoMessages } from '../../api/protobuf/messages.js';

/** authorization/v1: the access and rules reviews. */
const AUTHORIZATION_MESSAGES: MessageSet = {
  SubjectAccessReview: 'metadata=1:ObjectMeta spec=2:SubjectAccessReviewSpec! status=3:SubjectAccessReviewStatus!',
  LocalSubjectAccessReview: 'metadata=1:ObjectMeta spec=2:SubjectAccessReviewSpec! status=3:SubjectAccessReviewStatus!',
  SelfSubjectAccessReview:
    'metadata=1:ObjectMeta spec=2:SelfSubjectAccessReviewSpec! status=3:SubjectAccessReviewStatus!',
  SelfSubjectRulesReview: 'metadata=1:ObjectMeta spec=2:SelfSubjectRulesReviewSpec! status=3:SubjectRulesReviewStatus!',
  ResourceAttributes: 'namespace=1 verb=2 group=3 version=4 resource=5 subresource=6 name=7',
  NonResourceAttributes: 'path=1 verb=2',
  SubjectAccessReviewSpec:
    'resourceAttributes=1:ResourceAttributes nonResourceAttributes=2:NonResourceAttributes user=3 groups=4:[]string extra=5:map<ExtraValue> uid=6',
  ExtraValue: 'items=1:[]string',
  SelfSubjectAccessReviewSpec: 'resourceAttributes=1:ResourceAttributes nonResourceAttributes=2:NonResourceAttributes',
  SubjectAccessReviewStatus: 'allowed=1:bool! reason=2 evaluationError=3 denied=4:bool',
  SelfSubjectRulesReviewSpec: 'namespace=1',
  SubjectRulesReviewStatus:
    'resourceRules=1:[]ResourceRule nonResourceRules=2:[]NonResourceRule incomplete=3:bool! evaluationError=4',
  ResourceRule: 'verbs=1:[]string! apiGroups=2:[]string resources=3:[]string resourceNames=4:[]string',
  NonResourceRule: 'verbs=1:[]string! nonResourceURLs=2:[]string',
};

/** authentication/v1: TokenReview and SelfSubjectReview. */
const AUTHENTICATION_MESSAGES: MessageSet = {
  TokenReview: 'metadata=1:ObjectMeta spec=2:TokenReviewSpec! status=3:TokenReviewStatus!',
  TokenReviewSpec: 'token=1 audiences=2:[]string',
  TokenReviewStatus: 'authenticated=1:bool user=2:UserInfo! error=3 audiences=4:[]string',
  UserInfo: 'username=1 uid=2 groups=3:[]string extra=4:map<ExtraValue>',
  ExtraValue: 'items=1:[]string',
  SelfSubjectReview: 'metadata=1:ObjectMeta status=2:SelfSubjectReviewStatus!',
  SelfSubjectReviewStatus: 'userInfo=1:UserInfo!',
};

/** The authorization review messages in the v1 package of `group` (authorization.k8s.io or .ck.io). */
export const authorizationMessages = (group: string): ProtoMessages => ({ [`${group}/v1`]: AUTHORIZATION_MESSAGES });

/** The authentication review messages in the v1 package of `group` (authentication.k8s.io or .ck.io). */
export const authenticationMessages = (group: string): ProtoMessages => ({ [`${group}/v1`]: AUTHENTICATION_MESSAGES });
