/**
 * `kubectl get` columns of the RBAC kinds (upstream pkg/printers/internalversion/printers.go):
 * Roles and ClusterRoles have no printer upstream and get the default table (NAME, CREATED AT);
 * bindings print NAME, ROLE (`Kind/name`), AGE and, wide, USERS, GROUPS and SERVICEACCOUNTS
 * (printRoleBinding / printClusterRoleBinding with rbac.SubjectsStrings).
 */
import {
  AGE_COLUMN,
  DEFAULT_PRINTER,
  NAME_COLUMN,
  age,
  column,
  type TablePrinter,
  type TableColumn,
} from '../../api/table.js';
import type { ClusterRoleBinding, RoleBinding, Subject } from './rbac.schema.js';

/** Role and ClusterRole: upstream's default table convertor, Name and Created At (RFC 3339). */
export const rolePrinter: TablePrinter = DEFAULT_PRINTER;

/**
 * Upstream rbac.SubjectsStrings: user names, group names and `namespace/name` of service
 * accounts, in the order of the subjects (subjects of other kinds are left out).
 */
export function subjectsStrings(subjects: readonly Subject[] | null | undefined): {
  users: string[];
  groups: string[];
  serviceAccounts: string[];
} {
  const users: string[] = [];
  const groups: string[] = [];
  const serviceAccounts: string[] = [];
  for (const s of subjects ?? []) {
    if (s.kind === 'ServiceAccount') serviceAccounts.push(`${s.namespace ?? ''}/${s.name ?? ''}`);
    else if (s.kind === 'User') users.push(s.name ?? '');
    else if (s.kind === 'Group') groups.push(s.name ?? '');
  }
  return { users, groups, serviceAccounts };
}

/** The columns of a binding kind; `what` names it in the descriptions, `roleDoc` is its roleRef's documentation. */
function bindingColumns(what: string, roleDoc: string): TableColumn[] {
  return [
    NAME_COLUMN,
    column('Role', 'string', roleDoc),
    AGE_COLUMN,
    column('Users', 'string', `Users in the ${what}`, 1),
    column('Groups', 'string', `Groups in the ${what}`, 1),
    column('ServiceAccounts', 'string', `ServiceAccounts in the ${what}`, 1),
  ];
}

/** Cells of a binding: name, `Kind/name` of its role, age, then the subjects joined by ", ". */
function bindingCells(obj: RoleBinding | ClusterRoleBinding, now: Date): unknown[] {
  const { users, groups, serviceAccounts } = subjectsStrings(obj.subjects);
  const role = `${obj.roleRef?.kind ?? ''}/${obj.roleRef?.name ?? ''}`;
  return [obj.metadata.name, role, age(obj, now), users.join(', '), groups.join(', '), serviceAccounts.join(', ')];
}

/** `kubectl get rolebindings`: NAME ROLE AGE, wide USERS GROUPS SERVICEACCOUNTS. */
export const roleBindingPrinter: TablePrinter<RoleBinding> = {
  columns: bindingColumns(
    'roleBinding',
    'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.',
  ),
  cells: bindingCells,
};

/** `kubectl get clusterrolebindings`: NAME ROLE AGE, wide USERS GROUPS SERVICEACCOUNTS. */
export const clusterRoleBindingPrinter: TablePrinter<ClusterRoleBinding> = {
  columns: bindingColumns(
    'clusterRoleBinding',
    'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.',
  ),
  cells: bindingCells,
};
