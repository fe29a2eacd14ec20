/**
 * Protobuf messages of Service (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api core/v1 generated.proto).
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const serviceMessages: ProtoMessages = {
  v1: {
    ...listMessage('Service'),
    ClientIPConfig: 'timeoutSeconds=1:int32!',
    LoadBalancerIngress: 'ip=1 hostname=2',
    LoadBalancerStatus: 'ingress=1:[]LoadBalancerIngress',
    Service: 'metadata=1:ObjectMeta spec=2:ServiceSpec status=3:ServiceStatus',
    ServicePort: 'name=1 protocol=2 port=3:int32! targetPort=4:IntOrString nodePort=5:int32',
    ServiceSpec:
      'ports=1:[]ServicePort selector=2:map<string> clusterIP=3 type=4 externalIPs=5:[]string sessionAffinity=7 loadBalancerIP=8 loadBalancerSourceRanges=9:[]string externalName=10 externalTrafficPolicy=11 healthCheckNodePort=12:int32 publishNotReadyAddresses=13:bool sessionAffinityConfig=14:SessionAffinityConfig',
    ServiceStatus: 'loadBalancer=1:LoadBalancerStatus',
    SessionAffinityConfig: 'clientIP=1:ClientIPConfig',
  },
};
