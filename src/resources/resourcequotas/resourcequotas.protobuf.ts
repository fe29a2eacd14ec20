/**
 * Protobuf messages of ResourceQuota (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api core/v1 generated.proto).
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const resourceQuotaMessages: ProtoMessages = {
  v1: {
    ...listMessage('ResourceQuota'),
    ResourceQuota: 'metadata=1:ObjectMeta spec=2:ResourceQuotaSpec status=3:ResourceQuotaStatus',
    ResourceQuotaSpec: 'hard=1:map<Quantity> scopes=2:[]string scopeSelector=3:ScopeSelector',
    ResourceQuotaStatus: 'hard=1:map<Quantity> used=2:map<Quantity>',
    ScopeSelector: 'matchExpressions=1:[]ScopedResourceSelectorRequirement',
    ScopedResourceSelectorRequirement: 'scopeName=1! operator=2! values=3:[]string',
  },
};
