/** Service fields. */
import { kindSchema } from '../../api/meta-schema.js';
import { bool, int, protocol, intOrString, list, obj, oneOf, reqInt, reqObj, str, strList, strMap } from '../../api/core/schema-kit.js';

export const serviceSchema = kindSchema({
  spec: obj({
    clusterIP: str,
    externalIPs: strList,
    externalName: str,
    externalTrafficPolicy: oneOf(['Local', 'Cluster']),
    healthCheckNodePort: int,
    loadBalancerIP: str,
    loadBalancerSourceRanges: strList,
    ports: list(reqObj({ name: str, nodePort: int, port: reqInt, protocol, targetPort: intOrString })),
    publishNotReadyAddresses: bool,
    selector: strMap,
    sessionAffinity: oneOf(['ClientIP', 'None']),
    sessionAffinityConfig: obj({ clientIP: obj({ timeoutSeconds: int }) }),
    type: oneOf(['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName']),
  }),
  status: obj({ loadBalancer: obj({ ingress: list(reqObj({ hostname: str, ip: str })) }) }),
});
