/**
 * Protobuf messages of CertificateSigningRequest (numbers from upstream's k8s.io/api
 * certificates/v1 and v1beta1 generated.proto, the same at both versions). `extra` is a map of
 * ExtraValue, a message of one string list that JSON writes as the bare list.
 */
import { inVersions, listMessage, type MessageSet } from '../../api/protobuf/messages.js';

const CSR_MESSAGES: MessageSet = {
  ...listMessage('CertificateSigningRequest'),
  CertificateSigningRequest:
    'metadata=1:ObjectMeta spec=2:CertificateSigningRequestSpec! status=3:CertificateSigningRequestStatus',
  CertificateSigningRequestSpec:
    'request=1:bytes! signerName=7! expirationSeconds=8:int32! usages=5:[]string username=2 uid=3 groups=4:[]string extra=6:map<ExtraValue>',
  ExtraValue: 'items=1:[]string',
  CertificateSigningRequestStatus: 'conditions=1:[]CertificateSigningRequestCondition certificate=2:bytes',
  CertificateSigningRequestCondition:
    'type=1! status=6! reason=2 message=3 lastUpdateTime=4:Time lastTransitionTime=5:Time',
};

/** The messages of the versions `apiVersions` serve. */
export const csrMessages = (...apiVersions: string[]) => inVersions(CSR_MESSAGES, ...apiVersions);
