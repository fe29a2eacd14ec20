/**
 * Names the flowcontrol.apiserver.k8s.io kinds give meaning to (k8s.io/api flowcontrol/v1
 * types.go): the mandatory objects, the Dangling condition and the auto-update annotation of
 * the bootstrap configuration.
 */

/** The group served (v1 only, as upstream 1.33). */
export const FLOWCONTROL_GROUP = 'flowcontrol.apiserver.k8s.io';
/** apiVersion of the stored and served objects. */
export const FLOWCONTROL_V1 = `${FLOWCONTROL_GROUP}/v1`;

/** The mandatory priority level of exempt requests, and the only one whose type may be Exempt. */
export const EXEMPT = 'exempt';
/** The mandatory priority level and FlowSchema that catch whatever no other schema matches. */
export const CATCH_ALL = 'catch-all';

/** FlowSchema condition: its priority level does not exist (status True) or does (False). */
export const DANGLING_CONDITION = 'Dangling';

/**
 * Annotation of the bootstrap configuration objects: `"true"` lets the server keep the object's
 * spec at the bootstrap one (and delete it once the bootstrap set no longer names it);
 * `"false"` keeps an operator's edits. Mandatory objects are always set back to `"true"`.
 */
export const AUTO_UPDATE_ANNOTATION = 'apf.kubernetes.io/autoupdate-spec';
