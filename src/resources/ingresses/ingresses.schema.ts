/**
 * Ingress fields: today's networking.k8s.io/v1 (k8s.io/api networking/v1 types.go; every list
 * `+listType=atomic`) and 1.10's extensions/v1beta1 (`backend` with serviceName/servicePort,
 * paths without pathType, no ingressClassName, core LoadBalancerStatus).
 */
import type { z } from 'zod';
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { int, intOrString, list, obj, reqObj, reqStr, str, strList } from '../../api/core/schema-kit.js';

const HOST =
  'Fully qualified domain name of a network host (RFC 3986), without port; precise ("foo.bar.com") or a wildcard of one leading label ("*.foo.com"). Unset: the rule applies to all traffic.';
const PATH =
  'Matched against the path of an incoming request; must begin with "/" and be present for pathType Exact or Prefix.';

const tls = reqObj({
  hosts: strList.describe('Hosts included in the TLS certificate; they must match the names in the secret.'),
  secretName: str.describe(
    'Secret holding the certificate that terminates TLS on port 443; optional, for TLS routing by SNI alone.',
  ),
});

/** The rules and TLS of one Ingress version's spec, its path shape given. */
function specShape<P extends z.ZodType>(path: P) {
  return {
    rules: list(
      reqObj({
        host: str.describe(HOST),
        http: obj({ paths: list(path).describe('Paths that map requests to backends.') }).describe(
          'HTTP rule: paths mapping requests to backends.',
        ),
      }),
    ).describe('Host rules; if unspecified or none matches, traffic goes to the default backend.'),
    tls: list(tls).describe('TLS configuration: certificates for hosts, all on port 443 (SNI multiplexed).'),
  };
}

const v1Backend = reqObj({
  resource: obj({
    apiGroup: str.describe('Group of the resource; unset: the core group.'),
    kind: reqStr.describe('Kind of the resource.'),
    name: reqStr.describe('Name of the resource.'),
  }).describe('A resource of the Ingress namespace as backend; excludes service.'),
  service: obj({
    name: reqStr.describe('Name of a Service in the namespace of the Ingress.'),
    port: obj({
      name: str.describe('Name of the port on the Service; excludes number.'),
      number: int.describe('Number of the port on the Service (e.g. 80); excludes name.'),
    }).describe('Port of the Service, by name or number (one is required).'),
  }).describe('A Service as backend; excludes resource.'),
});

const v1Path = reqObj({
  backend: v1Backend.describe('Where matching traffic is forwarded.'),
  path: str.describe(PATH),
  pathType: str.describe(
    'How path matches: Exact (the whole path, case sensitive), Prefix (element-wise by "/") or ImplementationSpecific (up to the IngressClass). Required.',
  ),
});

/** networking.k8s.io/v1 Ingress (the storage version). */
export const ingressSchema = kindSchema({
  spec: obj({
    ...specShape(v1Path),
    defaultBackend: obj(v1Backend.shape).describe(
      'Backend for requests that match no rule; required when there are no rules.',
    ),
    ingressClassName: str.describe(
      'Name of the IngressClass (a cluster resource) whose controller serves this Ingress; replaces the deprecated kubernetes.io/ingress.class annotation.',
    ),
  }).describe('Desired state of the Ingress.'),
  status: obj({
    loadBalancer: obj({
      ingress: list(
        reqObj({
          hostname: str.describe('Set for DNS-based load-balancer ingress points.'),
          ip: str.describe('Set for IP-based load-balancer ingress points.'),
          ports: list(
            reqObj({
              error: str.describe(
                'A problem with the port: a CamelCase name, or for cloud providers foo.example.com/CamelCase.',
              ),
              port: int.describe('Port number of the ingress port.'),
              protocol: str.describe('Protocol of the ingress port: TCP, UDP or SCTP.'),
            }),
          ).describe('Ports exposed by this load balancer.'),
        }),
      ).describe('Ingress points of the load balancer.'),
    }).describe('Current status of the load balancer.'),
  }).describe('Current state of the Ingress, written by its controller.'),
});

const v1beta1Backend = reqObj({
  serviceName: str.describe('Name of a Service in the namespace of the Ingress.'),
  servicePort: intOrString.describe('Port of the Service, by number or name.'),
});

const v1beta1Path = reqObj({
  backend: v1beta1Backend.describe('Where matching traffic is forwarded.'),
  path: str.describe(`${PATH} (Read as pathType ImplementationSpecific.)`),
});

/** extensions/v1beta1 Ingress of 1.10. */
export const ingressV1beta1Schema = kindSchema({
  spec: obj({
    ...specShape(v1beta1Path),
    backend: obj(v1beta1Backend.shape).describe(
      'Backend for requests that match no rule; required when there are no rules.',
    ),
  }).describe('Desired state of the Ingress.'),
  status: obj({
    loadBalancer: obj({
      ingress: list(
        reqObj({
          hostname: str.describe('Set for DNS-based load-balancer ingress points.'),
          ip: str.describe('Set for IP-based load-balancer ingress points.'),
        }),
      ).describe('Ingress points of the load balancer.'),
    }).describe('Current status of the load balancer.'),
  }).describe('Current state of the Ingress, written by its controller.'),
});

/** An Ingress as stored (networking.k8s.io/v1). */
export type Ingress = KindObject<typeof ingressSchema>;
/** An Ingress as extensions/v1beta1 serves it. */
export type IngressV1beta1 = KindObject<typeof ingressV1beta1Schema>;
