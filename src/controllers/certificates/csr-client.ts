/**
 * The certificate controllers' reads and writes on this server's CSR store (upstream's CSR
 * lister and the clientset's UpdateStatus, UpdateApproval and Delete): reads from the watch
 * cache (resourceVersion '0'); writes through the store, so admission runs, as
 * kube-controller-manager's `certificate-controller` service account. An update carries the
 * resourceVersion it was computed from: a request that changed meanwhile answers 409, and the
 * queue retries on the fresh object (upstream's optimistic concurrency).
 */
import { ApiError } from '../../errors/api-error.js';
import type { WriterInfo } from '../../registry/access.js';
import { deleteObject } from '../../registry/deletion.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import { controllerUser, CONTROLLER_FIELD_MANAGER } from '../controller-user.js';
import type { Csr } from './csr-conditions.js';

/** kube-controller-manager's service account for csrsigning, csrapproving and csrcleaner. */
export const CERTIFICATE_CONTROLLER_USER: WriterInfo = controllerUser('certificate-controller');

/** What the certificate controllers do with requests. */
export interface CsrClient {
  /** The cached request `name`, or undefined when there is none. */
  get(name: string): Promise<Csr | undefined>;
  /** Every cached request. */
  list(): Promise<Csr[]>;
  /** Write `csr`'s status through `/status`. Throws ApiError 409 when it changed since read, 404 when gone. */
  updateStatus(csr: Csr): Promise<void>;
  /** Write `csr`'s conditions through `/approval`. Throws as {@link updateStatus}. */
  updateApproval(csr: Csr): Promise<void>;
  /** Delete the request `name`. Throws ApiError (404 when gone). */
  delete(name: string): Promise<void>;
}

/** A CsrClient over the v1 CSR store, writing as `user`. */
export function registryCsrClient(store: GenericStore<Csr>, user: WriterInfo = CERTIFICATE_CONTROLLER_USER): CsrClient {
  const write = { user, fieldManager: CONTROLLER_FIELD_MANAGER };
  const sub = (name: string) => {
    const found = store.def.subresources.find((s) => s.name === name);
    if (!found) throw new Error(`certificatesigningrequests has no ${name} subresource`);
    return found;
  };
  const status = sub('status');
  const approval = sub('approval');
  // The request's resourceVersion goes with it: the store answers 409 when it changed since read.
  const put = async (csr: Csr, subresource: typeof status) => {
    await store.update('', csr.metadata.name ?? '', () => csr, subresource, write);
  };
  return {
    async get(name) {
      try {
        return await store.get('', name, '0');
      } catch (err) {
        if (err instanceof ApiError && err.code === 404) return undefined;
        throw err;
      }
    },
    list: async () => (await store.list('', { predicate: buildPredicate(store.def), resourceVersion: '0' })).items,
    updateStatus: (csr) => put(csr, status),
    updateApproval: (csr) => put(csr, approval),
    async delete(name) {
      await deleteObject(store, '', name, { user });
    },
  };
}
