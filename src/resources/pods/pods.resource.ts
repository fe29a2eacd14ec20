/**
 * Pod (core/v1). Field selectors as upstream 1.10 (pkg/registry/core/pod/strategy.go
 * PodToSelectableFields), with the legacy `spec.host` label. Status, binding, eviction and
 * ephemeralcontainers subresources. Updates are restricted as upstream 1.33 ValidatePodUpdate
 * (pod-update-rules.ts), status writes as ValidatePodStatusUpdate (pod-status-rules.ts),
 * ephemeral container writes as ValidatePodEphemeralContainersUpdate (pod-ephemeral.ts).
 */
import { podPrinter } from './pods.table.js';
import { podSchema, type Pod } from './pods.schema.js';
import { defaultPodSpec, podQosClass } from '../../api/core/pod-spec-defaults.js';
import { defineResource, keepStatusOnUpdate, statusSubresource } from '../define.js';
import { podMessages } from './pods.protobuf.js';
import { bindingCreate } from '../bindings/bind-pod.js';
import { validatePodUpdate } from './pod-update-rules.js';
import { validatePod, validatePodCreate } from './pod-validation.js';
import { podConnectSubresources } from './pod-connect.js';
import { ephemeralContainersSubresource } from './pod-ephemeral.js';
import { mergePodStatus, validatePodStatusUpdate } from './pod-status-rules.js';
import { evictionSubresource } from '../evictions/evictions.subresource.js';

export const pods = defineResource({
  kind: 'Pod',
  description: 'Pod is a group of containers scheduled together on one node, sharing network and storage.',
  protobuf: podMessages,
  plural: 'pods',
  namespaced: true,
  schema: podSchema,
  printer: podPrinter,
  shortNames: ['po'],
  categories: ['all'],
  deleteReturnsObject: true,
  // Served by the node agent or the pod itself (upstream's connect subresources), in upstream's order.
  subresources: [
    podConnectSubresources[0],
    { name: 'binding', kind: 'Binding', verbs: ['create'], create: (req) => bindingCreate(req, req.target) },
    ephemeralContainersSubresource,
    evictionSubresource,
    ...podConnectSubresources.slice(1),
    { ...statusSubresource<Pod>('Pod'), merge: mergePodStatus, validateUpdate: validatePodStatusUpdate },
  ],
  strategy: {
    ...keepStatusOnUpdate,
    defaults(obj) {
      defaultPodSpec(obj.spec);
      // Upstream SetDefaults_Pod (a Pod's spec only, not a template's).
      if (obj.spec) obj.spec.enableServiceLinks ??= true;
    },
    prepareForCreate(obj) {
      obj.status = { phase: 'Pending', qosClass: podQosClass(obj.spec) };
    },
    /** Upstream ValidatePodCreate (pod-validation.ts). */
    validate: validatePodCreate,
    /** ValidatePod, then upstream 1.33 ValidatePodUpdate's rules (pod-update-rules.ts). */
    validateUpdate: (pod, old) => [...validatePod(pod), ...validatePodUpdate(pod, old)],
    /** Upstream CheckGracefulDelete: unscheduled or finished pods go at once. */
    gracefulDelete(pod, requested) {
      const phase = pod.status?.phase;
      if (!pod.spec?.nodeName || phase === 'Succeeded' || phase === 'Failed') return 0;
      const grace = requested ?? pod.spec.terminationGracePeriodSeconds ?? 30;
      return grace < 0 ? 1 : grace;
    },
  },
  selectableFields: [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'status.phase',
    'status.podIP',
    'status.nominatedNodeName',
  ],
  fieldLabelAliases: { 'spec.host': 'spec.nodeName' },
  // Kubelets watch their node's pods: upstream's watch cache indexes pods by node.
  cacheIndexes: ['spec.nodeName'],
  fieldSet: ({ spec, status }) => {
    const s = (v: string | null | undefined) => v ?? '';
    return {
      'spec.nodeName': s(spec?.nodeName),
      'spec.restartPolicy': s(spec?.restartPolicy),
      'spec.schedulerName': s(spec?.schedulerName),
      'spec.serviceAccountName': s(spec?.serviceAccountName),
      'status.phase': s(status?.phase),
      'status.podIP': s(status?.podIP),
      'status.nominatedNodeName': s(status?.nominatedNodeName),
    };
  },
});
