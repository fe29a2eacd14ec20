/** Service fields (protocol and externalTrafficPolicy values are checked by services.validation.ts, worded as upstream). */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import {
  atomic,
  bool,
  int,
  intOrString,
  list,
  mergedList,
  obj,
  oneOf,
  reqInt,
  reqObj,
  str,
  strList,
  strMap,
} from '../../api/core/schema-kit.js';

export const serviceSchema = kindSchema({
  spec: obj({
    clusterIP: str.describe(
      'IP address of the service, allocated from the service range when empty; "None" makes a headless service. Cannot be changed.',
    ),
    externalIPs: strList.describe(
      'IPs on which nodes also accept traffic for this service (not managed by the cluster).',
    ),
    externalName: str.describe('DNS name the service aliases (a CNAME) when type is ExternalName.'),
    externalTrafficPolicy: str.describe(
      'Whether external traffic is routed to node-local endpoints only (Local, keeping the client IP) or spread cluster-wide (Cluster).',
    ),
    healthCheckNodePort: int.describe(
      'Node port of the health check, for type LoadBalancer with externalTrafficPolicy Local; allocated when empty.',
    ),
    loadBalancerIP: str.describe('IP the load balancer is created with, when the cloud provider supports choosing it.'),
    loadBalancerSourceRanges: strList.describe('Client CIDRs allowed through the cloud load balancer.'),
    // Keyed by port and protocol for server-side apply (protocol defaults to TCP).
    ports: mergedList(
      reqObj({
        name: str.describe('Name of the port, unique within the service; required when there are several ports.'),
        nodePort: int.describe(
          'Port on every node for NodePort and LoadBalancer services; allocated from the node port range when empty.',
        ),
        port: reqInt.describe('Port the service listens on.'),
        protocol: str.describe('TCP (the default) or UDP.'),
        targetPort: intOrString.describe(
          'Port number or name on the pods to forward to; the value of port when empty.',
        ),
      }),
      { key: 'port', keys: ['port', 'protocol'], defaults: { protocol: 'TCP' } },
    ).describe('Ports the service exposes.'),
    publishNotReadyAddresses: bool.describe(
      'Publish the addresses of pods that are not ready too (for DNS of stateful peers).',
    ),
    selector: atomic(strMap).describe(
      'Label selector of the pods traffic is routed to. Without one, endpoints are managed by hand.',
    ),
    sessionAffinity: oneOf(['ClientIP', 'None']).describe(
      "ClientIP sends a client's connections to the same pod; None (the default) does not.",
    ),
    sessionAffinityConfig: obj({ clientIP: obj({ timeoutSeconds: int }) }).describe('Settings of session affinity.'),
    type: oneOf(['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort']).describe(
      'How the service is exposed: ClusterIP (the default), NodePort, LoadBalancer or ExternalName.',
    ),
  }),
  status: obj({ loadBalancer: obj({ ingress: list(reqObj({ hostname: str, ip: str })) }) }),
});

/** A Service as its schema describes it (for its strategy, printer and service allocation). */
export type Service = KindObject<typeof serviceSchema>;
