/**
 * `kubectl get validatingadmissionpolicybindings` columns (k8s.io/kubernetes
 * pkg/printers/internalversion printers.go, 1.33): NAME POLICYNAME PARAMREF AGE. The paramRef
 * is `<namespace>/<name>`, `<name>` after `*` and a slash without a namespace, the selector as Go's generated
 * String() prints it without a name, `<unset>` without a paramRef.
 */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { ParamRef, ValidatingAdmissionPolicyBinding } from './validatingadmissionpolicybindings.schema.js';

/**
 * metav1.LabelSelector's generated String() (gogo protobuf), which upstream's printer shows:
 * `&LabelSelector{MatchLabels:map[string]string{k: v,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[a b],},},}`.
 */
export function goSelectorString(sel: NonNullable<ParamRef['selector']>): string {
  const labels = Object.keys(sel.matchLabels ?? {})
    .sort()
    .map((k) => `${k}: ${sel.matchLabels![k]},`)
    .join('');
  const exprs = (sel.matchExpressions ?? [])
    .map(
      (e) =>
        `LabelSelectorRequirement{Key:${e.key ?? ''},Operator:${e.operator ?? ''},Values:[${(e.values ?? []).join(' ')}],},`,
    )
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}

/** The PARAMREF cell. */
function paramRefCell(binding: ValidatingAdmissionPolicyBinding): string {
  const pr = binding.spec?.paramRef;
  if (!pr) return '<unset>';
  if (pr.name) return pr.namespace ? `${pr.namespace}/${pr.name}` : `*/${pr.name}`;
  if (pr.selector) return goSelectorString(pr.selector);
  return '<unset>';
}

export const bindingPrinter: TablePrinter<ValidatingAdmissionPolicyBinding> = {
  columns: [
    NAME_COLUMN,
    column('PolicyName', 'string', 'PolicyName indicates the policy definition which the policy binding binded to'),
    column('ParamRef', 'string', 'ParamRef indicates the param resource which sets the configration param'),
    AGE_COLUMN,
  ],
  cells: (obj, now) => [obj.metadata.name, obj.spec?.policyName ?? '', paramRefCell(obj), age(obj, now)],
};
