/**
 * Rows of the resource table for upstream's groups (certificates: certificatesigningrequests;
 * admissionregistration: webhook configurations; apiregistration: apiservices); each row's kind
 * lives in its own folder under src/resources/. Every kind has one storage (upstream's storage
 * version, listed first) served at the other versions through a conversion.
 */
import type { ResourceDefinition } from '../../registry/types.js';
import { apiServices, apiServicesCkV1beta1, apiServicesV1beta1 } from '../apiservices/apiservices.resource.js';
import {
  certificateSigningRequests,
  certificateSigningRequestsCkV1beta1,
  certificateSigningRequestsV1beta1,
} from '../certificatesigningrequests/csr.resource.js';
import {
  mutatingWebhookConfigurations,
  mutatingWebhookConfigurationsCkV1beta1,
  mutatingWebhookConfigurationsV1beta1,
} from '../mutatingwebhookconfigurations/mutatingwebhookconfigurations.resource.js';
import {
  validatingWebhookConfigurations,
  validatingWebhookConfigurationsCkV1beta1,
  validatingWebhookConfigurationsV1beta1,
} from '../validatingwebhookconfigurations/validatingwebhookconfigurations.resource.js';
import { validatingAdmissionPolicies } from '../validatingadmissionpolicies/validatingadmissionpolicies.resource.js';
import { validatingAdmissionPolicyBindings } from '../validatingadmissionpolicybindings/validatingadmissionpolicybindings.resource.js';

export const ROWS: readonly ResourceDefinition[] = [
  // certificates.k8s.io v1 (storage) and v1beta1, certificates.ck.io/v1beta1
  certificateSigningRequests,
  certificateSigningRequestsV1beta1,
  certificateSigningRequestsCkV1beta1,
  // admissionregistration.k8s.io v1 (storage) and v1beta1, admissionregistration.ck.io/v1beta1
  mutatingWebhookConfigurations,
  mutatingWebhookConfigurationsV1beta1,
  mutatingWebhookConfigurationsCkV1beta1,
  validatingWebhookConfigurations,
  validatingWebhookConfigurationsV1beta1,
  validatingWebhookConfigurationsCkV1beta1,
  // admissionregistration.k8s.io/v1 only (upstream 1.33 serves no other version by default)
  validatingAdmissionPolicies,
  validatingAdmissionPolicyBindings,
  // apiregistration.k8s.io v1 (storage) and v1beta1, apiregistration.ck.io/v1beta1
  apiServices,
  apiServicesV1beta1,
  apiServicesCkV1beta1,
] as readonly ResourceDefinition[];
