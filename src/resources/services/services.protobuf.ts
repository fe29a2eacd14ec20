/**
 * Protobuf messages of Service (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api core/v1 generated.proto).
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const serviceMessages: ProtoMessages = {
  v1: {
    ...listMessage('Service'),
    ClientIPConfig: 'timeoutSeconds=1:int32!',
    // meta/v1 Condition, kept in this package.
    Condition: 'type=1! status=2! observedGeneration=3:int64 lastTransitionTime=4:Time! reason=5! message=6!',
    LoadBalancerIngress: 'ip=1 hostname=2 ipMode=3! ports=4:[]PortStatus',
    LoadBalancerStatus: 'ingress=1:[]LoadBalancerIngress',
    PortStatus: 'port=1:int32! protocol=2! error=3!',
    Service: 'metadata=1:ObjectMeta spec=2:ServiceSpec status=3:ServiceStatus',
    ServicePort: 'name=1 protocol=2 port=3:int32! targetPort=4:IntOrString nodePort=5:int32 appProtocol=6!',
    ServiceSpec:
      'ports=1:[]ServicePort selector=2:map<string> clusterIP=3 type=4 externalIPs=5:[]string sessionAffinity=7 loadBalancerIP=8 loadBalancerSourceRanges=9:[]string externalName=10 externalTrafficPolicy=11 healthCheckNodePort=12:int32 publishNotReadyAddresses=13:bool sessionAffinityConfig=14:SessionAffinityConfig ipFamilyPolicy=17! clusterIPs=18:[]string ipFamilies=19:[]string allocateLoadBalancerNodePorts=20:bool! loadBalancerClass=21! internalTrafficPolicy=22! trafficDistribution=23!',
    ServiceStatus: 'loadBalancer=1:LoadBalancerStatus conditions=2:[]Condition',
    SessionAffinityConfig: 'clientIP=1:ClientIPConfig',
  },
};
