/**
 * `kubectl get validatingadmissionpolicies` columns (k8s.io/kubernetes
 * pkg/printers/internalversion printers.go, 1.33): NAME VALIDATIONS PARAMKIND AGE; the
 * paramKind as `<apiVersion>/<kind>`, `<unset>` without one.
 */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { ValidatingAdmissionPolicy } from './validatingadmissionpolicies.schema.js';

export const policyPrinter: TablePrinter<ValidatingAdmissionPolicy> = {
  columns: [
    NAME_COLUMN,
    column(
      'Validations',
      'integer',
      'Validations indicates the number of validation rules defined in this configuration',
    ),
    column('ParamKind', 'string', 'ParamKind specifies the kind of resources used to parameterize this policy'),
    AGE_COLUMN,
  ],
  cells: (obj, now) => {
    const pk = obj.spec?.paramKind;
    return [
      obj.metadata.name,
      (obj.spec?.validations ?? []).length,
      pk ? `${pk.apiVersion ?? ''}/${pk.kind ?? ''}` : '<unset>',
      age(obj, now),
    ];
  },
};
