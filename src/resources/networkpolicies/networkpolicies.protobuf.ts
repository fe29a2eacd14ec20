/**
 * Protobuf messages of NetworkPolicy (notation in api/protobuf/messages.ts; numbers from
 * upstream's k8s.io/api networking/v1 and, for 1.10's extensions/v1beta1, extensions/v1beta1
 * generated.proto). Status (3) is a reserved tag upstream. `podSelector` and `cidr` have no
 * `omitempty`: their zero values are kept.
 */
import { inVersions, listMessage, type MessageSet, type ProtoMessages } from '../../api/protobuf/messages.js';

/** The messages of one version; `endPort` only where it has it. */
function messages(withEndPort: boolean): MessageSet {
  return {
    ...listMessage('NetworkPolicy'),
    NetworkPolicy: 'metadata=1:ObjectMeta spec=2:NetworkPolicySpec',
    NetworkPolicySpec:
      'podSelector=1:LabelSelector! ingress=2:[]NetworkPolicyIngressRule egress=3:[]NetworkPolicyEgressRule policyTypes=4:[]string',
    NetworkPolicyIngressRule: 'ports=1:[]NetworkPolicyPort from=2:[]NetworkPolicyPeer',
    NetworkPolicyEgressRule: 'ports=1:[]NetworkPolicyPort to=2:[]NetworkPolicyPeer',
    NetworkPolicyPort: `protocol=1 port=2:IntOrString${withEndPort ? ' endPort=3:int32' : ''}`,
    NetworkPolicyPeer: 'podSelector=1:LabelSelector namespaceSelector=2:LabelSelector ipBlock=3:IPBlock',
    IPBlock: 'cidr=1! except=2:[]string',
  };
}

/** networking.k8s.io/v1 and networking.ck.io/v1 (one storage, the same messages). */
export const networkPolicyMessages: ProtoMessages = inVersions(
  messages(true),
  'networking.k8s.io/v1',
  'networking.ck.io/v1',
);

/** extensions/v1beta1 of 1.10. */
export const networkPolicyV1beta1Messages: ProtoMessages = { 'extensions/v1beta1': messages(false) };
