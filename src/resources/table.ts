/**
 * The resource table: every resource this server serves. Handlers, routes, discovery and
 * storage are derived from it; adding a kind is a folder under `resources/` and one line here.
 */
import type { ResourceDefinition } from '../registry/types.js';
import { bindings } from './bindings/bindings.resource.js';
import { configMaps } from './configmaps/configmaps.resource.js';
import { endpoints } from './endpoints/endpoints.resource.js';
import { events } from './events/events.resource.js';
import { limitRanges } from './limitranges/limitranges.resource.js';
import { namespaces } from './namespaces/namespaces.resource.js';
import { nodes } from './nodes/nodes.resource.js';
import { persistentVolumeClaims } from './persistentvolumeclaims/persistentvolumeclaims.resource.js';
import { persistentVolumes } from './persistentvolumes/persistentvolumes.resource.js';
import { pods } from './pods/pods.resource.js';
import { podTemplates } from './podtemplates/podtemplates.resource.js';
import { replicationControllers } from './replicationcontrollers/replicationcontrollers.resource.js';
import { resourceQuotas } from './resourcequotas/resourcequotas.resource.js';
import { secrets } from './secrets/secrets.resource.js';
import {
  securityContextConstraints,
  securityContextConstraintsV1,
} from './securitycontextconstraints/securitycontextconstraints.resource.js';
import { serviceAccounts } from './serviceaccounts/serviceaccounts.resource.js';
import { services } from './services/services.resource.js';
import { reviewKinds } from './reviews/reviews.resource.js';
import { RBAC_RESOURCES } from './rbac/rbac.resource.js';
import { ROWS as APPS_ROLLOUTS } from './groups/apps-rollouts.js';
import { ROWS as APPS_SETS } from './groups/apps-sets.js';
import { ROWS as BATCH_AUTOSCALING } from './groups/batch-autoscaling.js';
import { ROWS as NETWORK_POLICY } from './groups/network-policy.js';
import { ROWS as CLUSTER_SERVICES } from './groups/cluster-services.js';
import { ROWS as STORAGE_DISCOVERY } from './groups/storage-discovery.js';
import { ROWS as CERTIFICATES_REGISTRATION } from './groups/certificates-registration.js';
import { ROWS as FLOWCONTROL } from './groups/flowcontrol.js';
import { customResourceDefinitions } from './customresourcedefinitions/customresourcedefinitions.resource.js';
import { customResourceDefinitionsV1beta1 } from './customresourcedefinitions/v1beta1.resource.js';
import { advertiseShortNamesOnce } from './short-names.js';

/** Every served resource, core/v1 first in upstream discovery order, then group resources. */
export const RESOURCE_TABLE: readonly ResourceDefinition[] = advertiseShortNamesOnce([
  bindings,
  configMaps,
  endpoints,
  events,
  limitRanges,
  namespaces,
  nodes,
  persistentVolumeClaims,
  persistentVolumes,
  pods,
  podTemplates,
  replicationControllers,
  resourceQuotas,
  secrets,
  securityContextConstraints,
  serviceAccounts,
  services,
  securityContextConstraintsV1,
  ...RBAC_RESOURCES,
  ...reviewKinds,
  // Upstream's groups beyond core (discovery sorts each group version's rows by name):
  ...APPS_ROLLOUTS, // apps and extensions: deployments, replicasets; extensions: replicationcontrollers/scale
  ...APPS_SETS, // apps and extensions: statefulsets, daemonsets, controllerrevisions
  ...BATCH_AUTOSCALING, // batch: jobs, cronjobs; autoscaling: horizontalpodautoscalers
  ...NETWORK_POLICY, // networking: networkpolicies, ingresses, ingressclasses; policy: poddisruptionbudgets, podsecuritypolicies
  ...CLUSTER_SERVICES, // coordination, scheduling, node, events
  ...STORAGE_DISCOVERY, // storage: storageclasses, volumeattachments, csidrivers, csinodes; discovery: endpointslices
  ...CERTIFICATES_REGISTRATION, // certificates, admissionregistration, apiregistration
  ...FLOWCONTROL, // flowcontrol.apiserver.k8s.io: flowschemas, prioritylevelconfigurations
  customResourceDefinitions, // apiextensions.k8s.io; the resources they define are served at run time
  customResourceDefinitionsV1beta1, // apiextensions.k8s.io/v1beta1 (upstream 1.7-1.21) over the v1 storage
]);
