/**
 * Service fields as k8s.io/api core/v1 describes them at 1.33 (protocol, externalTrafficPolicy
 * and the new enums are checked by services.validation.ts, worded as upstream).
 */
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
  reqStr,
  str,
  strList,
  strMap,
  timeString,
} from '../../api/core/schema-kit.js';

export const serviceSchema = kindSchema({
  spec: obj({
    allocateLoadBalancerNodePorts: bool.describe(
      'Whether node ports are allocated for a LoadBalancer service (default true); only for type LoadBalancer.',
    ),
    clusterIP: str.describe(
      'IP address of the service, allocated from the service range when empty; "None" makes a headless service. Cannot be changed.',
    ),
    clusterIPs: strList.describe(
      'IP addresses of the service, at most one per IP family; the first is clusterIP. Filled from clusterIP and the allocation.',
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
    internalTrafficPolicy: str.describe(
      'Whether traffic from inside the cluster goes to any endpoint (Cluster, the default) or only to endpoints on the same node (Local).',
    ),
    ipFamilies: strList.describe(
      'IP families of the service (IPv4, IPv6), one per clusterIP; defaulted from the cluster configuration.',
    ),
    ipFamilyPolicy: str.describe(
      'Dual-stackness of the service: SingleStack (the default), PreferDualStack or RequireDualStack.',
    ),
    loadBalancerClass: str.describe(
      "Class of the load balancer implementation (a label-style name); the cloud provider's default when unset. Only for type LoadBalancer; cannot change.",
    ),
    loadBalancerIP: str.describe('IP the load balancer is created with, when the cloud provider supports choosing it.'),
    loadBalancerSourceRanges: strList.describe('Client CIDRs allowed through the cloud load balancer.'),
    // Keyed by port and protocol for server-side apply (protocol defaults to TCP).
    ports: mergedList(
      reqObj({
        appProtocol: str.describe(
          'Application protocol of the port: an IANA service name, a kubernetes.io/ name (h2c, ws, wss) or a domain-prefixed name.',
        ),
        name: str.describe('Name of the port, unique within the service; required when there are several ports.'),
        nodePort: int.describe(
          'Port on every node for NodePort and LoadBalancer services; allocated from the node port range when empty.',
        ),
        port: reqInt.describe('Port the service listens on.'),
        protocol: str.describe('TCP (the default), UDP or SCTP.'),
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
    trafficDistribution: str.describe(
      'How traffic is spread over the endpoints: PreferClose (topologically close ones).',
    ),
    type: oneOf(['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort']).describe(
      'How the service is exposed: ClusterIP (the default), NodePort, LoadBalancer or ExternalName.',
    ),
  }),
  status: obj({
    conditions: mergedList(
      reqObj({
        lastTransitionTime: timeString.describe('When the condition last changed status (RFC 3339).'),
        message: reqStr.describe('Human-readable message on the transition.'),
        observedGeneration: int.describe('Generation the condition was set from.'),
        reason: reqStr.describe('CamelCase reason for the last transition.'),
        status: reqStr.describe('True, False or Unknown.'),
        type: reqStr.describe('Type of the condition, in CamelCase or as foo.example.com/CamelCase.'),
      }),
      { key: 'type' },
    ).describe('Current service state.'),
    loadBalancer: obj({
      ingress: list(
        reqObj({
          hostname: str,
          ip: str,
          ipMode: str.describe(
            'How the load-balancer IP behaves: VIP (traffic arrives with the IP as destination) or Proxy; only with ip.',
          ),
          ports: list(
            reqObj({
              error: str.describe('Why the port is in error (a CamelCase reason); empty when it works.'),
              port: reqInt.describe('Port number of the service port.'),
              protocol: reqStr.describe('Protocol of the service port: TCP, UDP or SCTP.'),
            }),
          ).describe('Status of each service port on this ingress point.'),
        }),
      ),
    }),
  }),
});

/** A Service as its schema describes it (for its strategy, printer and service allocation). */
export type Service = KindObject<typeof serviceSchema>;
