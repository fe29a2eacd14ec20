/**
 * Who kube-controller-manager's controllers write as (upstream's --use-service-account-credentials):
 * each controller's service account in kube-system, and the field manager of their writes.
 */
import type { WriterInfo } from '../registry/access.js';

/** The user of the service account `name` in kube-system, as which a controller writes. */
export function controllerUser(name: string): WriterInfo {
  return Object.freeze({
    name: `system:serviceaccount:kube-system:${name}`,
    groups: Object.freeze(['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated']),
  });
}

/** The field manager of the controllers' writes (kube-controller-manager's). */
export const CONTROLLER_FIELD_MANAGER = 'kube-controller-manager';
