/**
 * CertificateSigningRequest (upstream pkg/registry/certificates/certificates): one storage
 * (certificates.k8s.io/v1, upstream's storage version) served as certificates.k8s.io v1 and
 * v1beta1 and as the spec's certificates.ck.io/v1beta1 (csr.conversion.ts). Cluster-scoped,
 * short name `csr`; subresources `status` (the signer's: the certificate and other conditions)
 * and `approval` (the approver's: the conditions). Any name a path can carry is accepted
 * (ValidateCertificateRequestName allows every name). Field selector `spec.signerName`. No
 * signer or approver runs here: a request stays as its clients write it.
 */
import { patchMetaOf } from '../../api/core/patch-meta.js';
import { validatePathSegmentName } from '../../api/names.js';
import type { ResourceDefinition } from '../../registry/types.js';
import { defineResource } from '../define.js';
import { csrV1beta1Conversion } from './csr.conversion.js';
import { csrMessages } from './csr.protobuf.js';
import { csrSchema, csrV1beta1Schema, type CertificateSigningRequest } from './csr.schema.js';
import { csrApproval, csrStatus, csrStrategy } from './csr.strategy.js';
import { csrPrinter } from './csr.table.js';

const DESCRIPTION =
  'CertificateSigningRequest asks a signer for a certificate: the request, who made it, and (through its subresources) whether it is approved and the issued certificate.';

/** certificates.k8s.io/v1: the storage version. */
export const certificateSigningRequests = defineResource({
  group: 'certificates.k8s.io',
  version: 'v1',
  kind: 'CertificateSigningRequest',
  description: DESCRIPTION,
  plural: 'certificatesigningrequests',
  namespaced: false,
  shortNames: ['csr'],
  schema: csrSchema,
  printer: csrPrinter,
  protobuf: csrMessages('certificates.k8s.io/v1'),
  subresources: [csrApproval(false), csrStatus(false)],
  strategy: csrStrategy(false),
  validateName: validatePathSegmentName,
  selectableFields: ['spec.signerName'],
  fieldSet: (obj) => ({ 'spec.signerName': obj.spec?.signerName ?? '' }),
});

/** A v1beta1 row of `group` over the v1 storage. */
function v1beta1Row(group: string): ResourceDefinition<CertificateSigningRequest> {
  return {
    ...certificateSigningRequests,
    group,
    version: 'v1beta1',
    schema: csrV1beta1Schema,
    patchMeta: patchMetaOf(csrV1beta1Schema),
    protobuf: csrMessages(`${group}/v1beta1`),
    conversion: csrV1beta1Conversion(group),
    subresources: [csrApproval(true), csrStatus(true)],
    strategy: csrStrategy(true),
  };
}

export const certificateSigningRequestsV1beta1 = v1beta1Row('certificates.k8s.io');
export const certificateSigningRequestsCkV1beta1 = v1beta1Row('certificates.ck.io');
