/**
 * Create and update preparation shared by FlowSchema and PriorityLevelConfiguration (upstream
 * pkg/registry/flowcontrol/flowschema and prioritylevelconfiguration strategy.go): create
 * clears the status and sets generation 1; an update keeps the stored status and bumps the
 * generation when the spec changed, compared as Go compares the decoded specs (an explicit
 * zero or empty list is no change).
 */
import type { ApiObject } from '../../api/object.js';
import type { Strategy } from '../../registry/types.js';
import { keepStatusOnUpdate } from '../define.js';
import { specsEqual } from './spec-equality.js';

/** PrepareForCreate and PrepareForUpdate of a flowcontrol kind. */
export const statusAndGeneration: Pick<Strategy, 'prepareForCreate' | 'prepareForUpdate'> = {
  prepareForCreate(obj: ApiObject) {
    obj.status = {};
    obj.metadata.generation = 1;
  },
  prepareForUpdate(obj: ApiObject, old: ApiObject) {
    keepStatusOnUpdate.prepareForUpdate!(obj, old);
    const generation = old.metadata.generation ?? 0;
    obj.metadata.generation = specsEqual(obj.spec, old.spec) ? generation : generation + 1;
  },
};
