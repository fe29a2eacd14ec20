/**
 * `kubectl get flowschemas` columns (upstream pkg/printers/internalversion printers.go
 * printFlowSchema, printFlowSchemaList): NAME PRIORITYLEVEL MATCHINGPRECEDENCE
 * DISTINGUISHERMETHOD AGE MISSINGPL. DISTINGUISHERMETHOD is `<none>` without one; MISSINGPL is
 * the status of the Dangling condition, `?` without it. A list's rows are sorted by matching
 * precedence, then by name (upstream FlowSchemaSequence), as kubectl shows them.
 */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import { DANGLING_CONDITION } from '../flowcontrol-common/names.js';
import type { FlowSchema } from './flowschemas.schema.js';

/** Matching precedence ascending, then name: the order in which schemas are tried. */
export function byMatchingPrecedence(a: FlowSchema, b: FlowSchema): number {
  const pa = a.spec?.matchingPrecedence ?? 0;
  const pb = b.spec?.matchingPrecedence ?? 0;
  if (pa !== pb) return pa - pb;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/** The Dangling condition's status (`True`: the priority level does not exist), `?` when there is none. */
function missingPriorityLevel(obj: FlowSchema): string {
  const dangling = obj.status?.conditions?.find((c) => c.type === DANGLING_CONDITION);
  return dangling ? (dangling.status ?? '') : '?';
}

export const flowSchemaPrinter: TablePrinter<FlowSchema> = {
  columns: [
    NAME_COLUMN,
    column(
      'PriorityLevel',
      'string',
      '`name` is the name of the priority level configuration being referenced Required.',
    ),
    column(
      'MatchingPrecedence',
      'string',
      '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.',
    ),
    column(
      'DistinguisherMethod',
      'string',
      '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.',
    ),
    AGE_COLUMN,
    column('MissingPL', 'string', 'references a broken or non-existent PriorityLevelConfiguration'),
  ],
  cells: (obj, now) => [
    obj.metadata.name,
    obj.spec?.priorityLevelConfiguration.name ?? '',
    obj.spec?.matchingPrecedence ?? 0,
    obj.spec?.distinguisherMethod?.type ?? '<none>',
    age(obj, now),
    missingPriorityLevel(obj),
  ],
  compare: byMatchingPrecedence,
};
