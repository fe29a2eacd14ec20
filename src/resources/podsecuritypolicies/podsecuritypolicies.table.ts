/**
 * `kubectl get podsecuritypolicies` columns (upstream printers.go printPodSecurityPolicy, as
 * 1.11-1.24 print it: the second column is Priv, which 1.10's server called Data; lists joined
 * with commas).
 */
import { NAME_COLUMN, column, type TablePrinter } from '../../api/table.js';
import type { PodSecurityPolicy } from './podsecuritypolicies.schema.js';

export const podSecurityPolicyPrinter: TablePrinter<PodSecurityPolicy> = {
  columns: [
    NAME_COLUMN,
    column('Priv', 'string', 'privileged determines if a pod can request to be run as privileged.'),
    column(
      'Caps',
      'string',
      "allowedCapabilities is a list of capabilities that can be requested to add to the container. Capabilities in this field may be added at the pod author's discretion. You must not list a capability in both allowedCapabilities and requiredDropCapabilities.",
    ),
    column('SELinux', 'string', 'seLinux is the strategy that will dictate the allowable labels that may be set.'),
    column(
      'RunAsUser',
      'string',
      'runAsUser is the strategy that will dictate the allowable RunAsUser values that may be set.',
    ),
    column(
      'FsGroup',
      'string',
      'fsGroup is the strategy that will dictate what fs group is used by the SecurityContext.',
    ),
    column(
      'SupGroup',
      'string',
      'supplementalGroups is the strategy that will dictate what supplemental groups are used by the SecurityContext.',
    ),
    column(
      'ReadOnlyRootFs',
      'string',
      'readOnlyRootFilesystem when set to true will force containers to run with a read only root file system. If the container specifically requests to run with a non-read only root file system the PSP should deny the pod. If set to false the container may run with a read only root file system if it wishes but it will not be forced to.',
    ),
    column(
      'Volumes',
      'string',
      "volumes is an allowlist of volume plugins. Empty indicates that no volumes may be used. To allow all volumes you may use '*'.",
    ),
  ],
  cells(obj) {
    const spec = obj.spec ?? {};
    return [
      obj.metadata.name,
      String(spec.privileged ?? false),
      (spec.allowedCapabilities ?? []).join(','),
      spec.seLinux?.rule ?? '',
      spec.runAsUser?.rule ?? '',
      spec.fsGroup?.rule ?? '',
      spec.supplementalGroups?.rule ?? '',
      spec.readOnlyRootFilesystem ?? false,
      (spec.volumes ?? []).join(','),
    ];
  },
};
