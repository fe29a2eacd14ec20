/** Endpoints fields (ports[].appProtocol added in 1.18). */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { atomic, list, obj, objectReference, reqInt, reqObj, reqStr, str } from '../../api/core/schema-kit.js';

const address = reqObj({ hostname: str, ip: reqStr, nodeName: str, targetRef: obj(objectReference) });

export const endpointsSchema = kindSchema({
  subsets: list(
    reqObj({
      addresses: list(address).describe('Addresses of endpoints ready to receive traffic.'),
      notReadyAddresses: list(address).describe(
        'Addresses of endpoints not ready yet (still starting, or failing readiness).',
      ),
      // EndpointPort is `+structType=atomic`.
      ports: list(
        atomic(
          reqObj({
            appProtocol: str.describe(
              'Application protocol of the port: an IANA service name, a kubernetes.io/ name or a domain-prefixed name.',
            ),
            name: str,
            port: reqInt,
            protocol: str.describe('TCP (the default), UDP or SCTP.'),
          }),
        ),
      ).describe('Port numbers available on every address of the subset.'),
    }),
  ).describe('Sets of addresses sharing the same ports; the union of all subsets is the full set of endpoints.'),
});

/** An Endpoints object as its schema describes it (for its strategy, printer and the service proxy). */
export type Endpoints = KindObject<typeof endpointsSchema>;
