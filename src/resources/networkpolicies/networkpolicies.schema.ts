/**
 * NetworkPolicy fields: today's networking.k8s.io/v1 (k8s.io/api networking/v1 types.go, every
 * list `+listType=atomic`) and 1.10's extensions/v1beta1, which lacks `endPort`.
 */
import type { z } from 'zod';
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { int, intOrString, list, obj, reqObj, reqStr, str, strList } from '../../api/core/schema-kit.js';
import { labelSelectorSchema } from '../apps-common/label-selector.js';

const PORTS =
  'Ports the rule allows, ORed; empty or missing matches every port. When present, traffic must match one of them.';

const portShape = {
  port: intOrString.describe(
    'Numeric or named port on a pod; unset matches every port. With it, traffic must match both protocol and port.',
  ),
  protocol: str.describe('TCP, UDP or SCTP, which traffic must match (default TCP).'),
};

/** networking.k8s.io/v1's port. */
const portV1 = reqObj({
  ...portShape,
  endPort: int.describe(
    'With a numeric port, the last port of the range port..endPort (inclusive); at least port. Not allowed without port or with a named port.',
  ),
});

/** The spec of NetworkPolicy, with its version's port. */
function specShape<P extends z.ZodType>(port: P) {
  const peer = reqObj({
    ipBlock: obj({
      cidr: reqStr.describe('A CIDR such as "192.168.1.0/24" or "2001:db8::/64".'),
      except: strList.describe('CIDRs inside cidr that are not included.'),
    }).describe('A CIDR range (with exceptions); when set, neither selector may be.'),
    namespaceSelector: labelSelectorSchema.describe(
      'Namespaces selected by their labels; empty selects every namespace. With podSelector, the pods matching it in those namespaces.',
    ),
    podSelector: labelSelectorSchema.describe(
      "Pods selected by their labels (empty: every pod), in the policy's namespace unless namespaceSelector is set.",
    ),
  });
  return {
    egress: list(
      reqObj({
        ports: list(port).describe(PORTS),
        to: list(peer).describe('Destinations of outgoing traffic, ORed; empty or missing matches every destination.'),
      }),
    ).describe(
      'Egress rules of the selected pods: outgoing traffic matching one of them is allowed. Empty: the pods may send nothing (when policyTypes has Egress).',
    ),
    ingress: list(
      reqObj({
        from: list(peer).describe(
          'Sources that may reach the selected pods, ORed; empty or missing matches every source.',
        ),
        ports: list(port).describe(PORTS),
      }),
    ).describe(
      'Ingress rules of the selected pods: incoming traffic matching one of them is allowed. Empty: the pods only get isolated.',
    ),
    podSelector: labelSelectorSchema.describe(
      'Pods of this namespace the policy applies to; an empty selector selects every pod. Not optional.',
    ),
    policyTypes: strList.describe(
      'Rule types the policy relates to: ["Ingress"], ["Egress"] or ["Ingress", "Egress"]. Default: Ingress, plus Egress when egress rules are present.',
    ),
  };
}

const describeSpec = 'Which pods the policy selects and what traffic it allows them.';

/** networking.k8s.io/v1 NetworkPolicy (the storage version). */
export const networkPolicySchema = kindSchema({ spec: obj(specShape(portV1)).describe(describeSpec) });

/** extensions/v1beta1 NetworkPolicy of 1.10 (no endPort). */
export const networkPolicyV1beta1Schema = kindSchema({
  spec: obj(specShape(reqObj(portShape))).describe(describeSpec),
});

/** A NetworkPolicy as stored (networking.k8s.io/v1). */
export type NetworkPolicy = KindObject<typeof networkPolicySchema>;
