/** EndpointSlice fields (k8s.io/api discovery/v1 types.go, 1.33). */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import {
  bool,
  int,
  list,
  obj,
  objectReference,
  reqObj,
  replacedSetList,
  str,
  strMap,
} from '../../api/core/schema-kit.js';
import { z } from 'zod';

const named = (what: string) => reqObj({ name: str.describe(`The name of the ${what}.`) });

const endpoint = reqObj({
  addresses: replacedSetList(z.string()).describe(
    'Addresses of this endpoint, of the slice’s addressType (IP addresses in canonical form): at least 1, at most 100.',
  ),
  conditions: obj({
    ready: bool.describe('Whether the endpoint is ready to receive traffic; unset means true.'),
    serving: bool.describe('Whether the endpoint is able to receive traffic (its pod is Ready); unset means true.'),
    terminating: bool.describe('Whether the endpoint is terminating; unset means false.'),
  }).describe('The current status of the endpoint.'),
  deprecatedTopology: strMap.describe(
    'Topology of the v1beta1 API; not writable through v1 (writes are ignored). Use zone and nodeName.',
  ),
  hints: obj({
    forNodes: list(named('node')).describe(
      'Nodes that should consume this endpoint (alpha: PreferSameTrafficDistribution, off in 1.33, so dropped).',
    ),
    forZones: list(named('zone')).describe(
      'Zones that should consume this endpoint (topology aware routing), at most 8.',
    ),
  }).describe('How the endpoint should be consumed.'),
  hostname: str.describe('Hostname of the endpoint (a DNS-1123 label), e.g. for DNS names.'),
  nodeName: str.describe('The Node hosting this endpoint.'),
  targetRef: obj(objectReference).describe('The object this endpoint represents, e.g. a Pod.'),
  zone: str.describe('The zone this endpoint is in.'),
});

const endpointPort = reqObj({
  appProtocol: str.describe(
    'The application protocol of this port: an IANA service name, kubernetes.io/h2c, kubernetes.io/ws, kubernetes.io/wss, or a prefixed name.',
  ),
  name: str.describe('The name of this port (a DNS-1123 label or empty), unique in the slice. Defaults to "".'),
  port: int.describe('The port number of the endpoint; unset for a slice of no particular port.'),
  protocol: str.describe('The IP protocol of this port: TCP (the default), UDP or SCTP.'),
});

export const endpointSliceSchema = kindSchema({
  addressType: str.describe('The type of every address of the slice: IPv4, IPv6 or FQDN (deprecated). Immutable.'),
  endpoints: list(endpoint).describe('The unique endpoints of this slice, at most 1000.'),
  ports: list(endpointPort).describe('The network ports every endpoint of the slice exposes, each name once.'),
});

/** An EndpointSlice as its schema describes it. */
export type EndpointSlice = KindObject<typeof endpointSliceSchema>;

/** SetDefaults_EndpointPort (v1): name "" and protocol TCP. */
export function defaultEndpointSlice(obj: EndpointSlice): void {
  for (const p of obj.ports ?? []) {
    p.name ??= '';
    p.protocol ??= 'TCP';
  }
}
