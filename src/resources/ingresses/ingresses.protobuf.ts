/**
 * Protobuf messages of Ingress (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api networking/v1 generated.proto, and extensions/v1beta1's of 1.10). IngressRule's
 * IngressRuleValue is inlined in JSON (`~`); fields without `omitempty` keep their zero value.
 */
import { listMessage, type MessageSet, type ProtoMessages } from '../../api/protobuf/messages.js';

const COMMON: MessageSet = {
  ...listMessage('Ingress'),
  Ingress: 'metadata=1:ObjectMeta spec=2:IngressSpec status=3:IngressStatus',
  IngressTLS: 'hosts=1:[]string secretName=2',
  IngressRule: 'host=1 ingressRuleValue=2:IngressRuleValue~',
  IngressRuleValue: 'http=1:HTTPIngressRuleValue',
  HTTPIngressRuleValue: 'paths=1:[]HTTPIngressPath!',
};

export const ingressMessages: ProtoMessages = {
  'networking.k8s.io/v1': {
    ...COMMON,
    IngressSpec: 'defaultBackend=1:IngressBackend tls=2:[]IngressTLS rules=3:[]IngressRule ingressClassName=4',
    IngressBackend: 'resource=3:TypedLocalObjectReference service=4:IngressServiceBackend',
    IngressServiceBackend: 'name=1! port=2:ServiceBackendPort',
    ServiceBackendPort: 'name=1 number=2:int32',
    TypedLocalObjectReference: 'apiGroup=1! kind=2! name=3!',
    HTTPIngressPath: 'path=1 backend=2:IngressBackend! pathType=3!',
    IngressStatus: 'loadBalancer=1:IngressLoadBalancerStatus',
    IngressLoadBalancerStatus: 'ingress=1:[]IngressLoadBalancerIngress',
    IngressLoadBalancerIngress: 'ip=1 hostname=2 ports=4:[]IngressPortStatus',
    IngressPortStatus: 'port=1:int32! protocol=2! error=3!',
  },
};

export const ingressV1beta1Messages: ProtoMessages = {
  'extensions/v1beta1': {
    ...COMMON,
    IngressSpec: 'backend=1:IngressBackend tls=2:[]IngressTLS rules=3:[]IngressRule',
    IngressBackend: 'serviceName=1! servicePort=2:IntOrString!',
    HTTPIngressPath: 'path=1 backend=2:IngressBackend!',
    IngressStatus: 'loadBalancer=1:LoadBalancerStatus',
    // core/v1 LoadBalancerStatus of 1.10, kept in this package.
    LoadBalancerStatus: 'ingress=1:[]LoadBalancerIngress',
    LoadBalancerIngress: 'ip=1 hostname=2',
  },
};
