/**
 * Admission steps of the certificates kinds, installed on their stores by admission/install.ts
 * (one call): a CertificateSigningRequest's requestor is the user creating it (upstream's CSR
 * PrepareForCreate: spec.username, uid, groups and extra cleared, then taken from the request's
 * user), on every version's store.
 */
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { StoreHooks } from '../../registry/hooks.js';
import type { CertificateSigningRequest } from '../certificatesigningrequests/csr.schema.js';
import {
  certificateSigningRequests,
  certificateSigningRequestsCkV1beta1,
  certificateSigningRequestsV1beta1,
} from '../certificatesigningrequests/csr.resource.js';

/** The requestor of a created CertificateSigningRequest. */
export const csrRequestor: StoreHooks<CertificateSigningRequest> = {
  async mutate(obj, old, attrs) {
    if (old || attrs.subresource) return;
    const spec = obj.spec;
    delete spec.username;
    delete spec.uid;
    delete spec.groups;
    delete spec.extra;
    const user = attrs.user;
    if (!user) return;
    if (user.name) spec.username = user.name;
    if (user.uid) spec.uid = user.uid;
    if (user.groups.length) spec.groups = [...user.groups];
    const extra = Object.entries(user.extra ?? {});
    if (extra.length) spec.extra = Object.fromEntries(extra.map(([k, v]) => [k, [...v]]));
  },
};

/** Install the steps on every store of the registry that serves these kinds. */
export function installCertificatesRegistrationAdmission(registry: ResourceRegistry): void {
  for (const def of [
    certificateSigningRequests,
    certificateSigningRequestsV1beta1,
    certificateSigningRequestsCkV1beta1,
  ])
    registry.find(def)?.addAdmission(csrRequestor);
}
