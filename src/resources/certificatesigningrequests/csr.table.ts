/**
 * `kubectl get csr` columns (upstream pkg/printers/internalversion printCertificateSigningRequest):
 * NAME AGE SIGNERNAME REQUESTOR REQUESTEDDURATION CONDITION, the condition as extractCSRStatus
 * words it (Denied, else Approved, else Pending; then `,Failed` and `,Issued`).
 */
import { AGE_COLUMN, NAME_COLUMN, age, column, humanDuration, type TablePrinter } from '../../api/table.js';
import type { CertificateSigningRequest } from './csr.schema.js';

/** extractCSRStatus. */
export function csrCondition(csr: CertificateSigningRequest): string {
  const types = new Set((csr.status?.conditions ?? []).map((c) => c.type));
  let status = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) status += ',Failed';
  if (csr.status?.certificate) status += ',Issued';
  return status;
}

export const csrPrinter: TablePrinter<CertificateSigningRequest> = {
  columns: [
    NAME_COLUMN,
    AGE_COLUMN,
    column('SignerName', 'string', 'The requested signer: a qualified name of the form `example.com/signer-name`.'),
    column('Requestor', 'string', 'Name of the user which made this request.'),
    column('RequestedDuration', 'string', 'The requested duration of validity of the issued certificate.'),
    column('Condition', 'string', 'State of the request.'),
  ],
  cells: (obj, now) => [
    obj.metadata.name,
    age(obj, now),
    obj.spec?.signerName || '<none>',
    obj.spec?.username ?? '',
    typeof obj.spec?.expirationSeconds === 'number' ? humanDuration(obj.spec.expirationSeconds) : '<none>',
    csrCondition(obj),
  ],
};
