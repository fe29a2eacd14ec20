/**
 * `kubectl get prioritylevelconfigurations` columns (upstream pkg/printers/internalversion
 * printers.go printPriorityLevelConfiguration): NAME TYPE NOMINALCONCURRENCYSHARES QUEUES
 * HANDSIZE QUEUELENGTHLIMIT AGE. The shares and queuing columns are `<none>` for an Exempt
 * level, and the queuing ones for a level that rejects rather than queues.
 */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { PriorityLevelConfiguration } from './prioritylevelconfigurations.schema.js';

const NONE = '<none>';

export const priorityLevelConfigurationPrinter: TablePrinter<PriorityLevelConfiguration> = {
  columns: [
    NAME_COLUMN,
    column(
      'Type',
      'string',
      '`type` indicates whether this priority level is subject to limitation on request execution.  A value of `"Exempt"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `"Limited"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server\'s limited capacity is made available exclusively to this priority level. Required.',
    ),
    column(
      'NominalConcurrencyShares',
      'string',
      '`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats available at this priority level. This is used both for requests dispatched from this priority level as well as requests dispatched from other priority levels borrowing seats from this level. The server\'s concurrency limit (ServerCL) is divided among the Limited priority levels in proportion to their NCS values:\n\nNominalCL(i)  = ceil( ServerCL * NCS(i) / sum_ncs ) sum_ncs = sum[priority level k] NCS(k)\n\nBigger numbers mean a larger nominal concurrency limit, at the expense of every other priority level.\n\nIf not specified, this field defaults to a value of 30.\n\nSetting this field to zero supports the construction of a "jail" for this priority level that is used to hold some request(s)',
    ),
    column(
      'Queues',
      'string',
      '`queues` is the number of queues for this priority level. The queues exist independently at each apiserver. The value must be positive.  Setting it to 1 effectively precludes shufflesharding and thus makes the distinguisher method of associated flow schemas irrelevant.  This field has a default value of 64.',
    ),
    column(
      'HandSize',
      'string',
      "`handSize` is a small positive number that configures the shuffle sharding of requests into queues.  When enqueuing a request at this priority level the request's flow identifier (a string pair) is hashed and the hash value is used to shuffle the list of queues and deal a hand of the size specified here.  The request is put into one of the shortest queues in that hand. `handSize` must be no larger than `queues`, and should be significantly smaller (so that a few heavy flows do not saturate most of the queues).  See the user-facing documentation for more extensive guidance on setting this field.  This field has a default value of 8.",
    ),
    column(
      'QueueLengthLimit',
      'string',
      '`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected.  This value must be positive.  If not specified, it will be defaulted to 50.',
    ),
    AGE_COLUMN,
  ],
  cells: (obj, now) => {
    const limited = obj.spec?.limited;
    const queuing = limited?.limitResponse?.queuing;
    return [
      obj.metadata.name,
      obj.spec?.type ?? '',
      limited ? (limited.nominalConcurrencyShares ?? 0) : NONE,
      queuing ? (queuing.queues ?? 0) : NONE,
      queuing ? (queuing.handSize ?? 0) : NONE,
      queuing ? (queuing.queueLengthLimit ?? 0) : NONE,
      age(obj, now),
    ];
  },
};
