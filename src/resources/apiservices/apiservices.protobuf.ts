/** Protobuf messages of APIService (numbers from kube-aggregator apiregistration v1 and v1beta1 generated.proto, the same at both). */
import { inVersions, listMessage, type MessageSet } from '../../api/protobuf/messages.js';

const MESSAGES: MessageSet = {
  ...listMessage('APIService'),
  APIService: 'metadata=1:ObjectMeta spec=2:APIServiceSpec status=3:APIServiceStatus',
  APIServiceSpec:
    'service=1:ServiceReference group=2 version=3 insecureSkipTLSVerify=4:bool caBundle=5:bytes groupPriorityMinimum=7:int32! versionPriority=8:int32!',
  ServiceReference: 'namespace=1 name=2 port=3:int32!',
  APIServiceStatus: 'conditions=1:[]APIServiceCondition',
  APIServiceCondition: 'type=1! status=2! lastTransitionTime=3:Time reason=4 message=5',
};

export const apiServiceMessages = (...apiVersions: string[]) => inVersions(MESSAGES, ...apiVersions);
