/**
 * The PriorityClass part of upstream's Priority admission plugin
 * (plugin/pkg/admission/priority/admission.go validatePriorityClass): at most one class is the
 * global default. A create marked globalDefault while another class is, or an update marking
 * a class other than the current default, is 403 `PriorityClass <name> is already marked as
 * default. Only one default can exist`. (Among several defaults left by a race, the one with
 * the lowest value counts, as upstream.)
 */
import { forbidden } from '../../errors/api-error.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { StoreHooks } from '../../registry/hooks.js';
import { buildPredicate } from '../../registry/predicate.js';
import type { PriorityClass } from './priorityclasses.schema.js';

export function priorityClassAdmission(store: GenericStore<PriorityClass>): StoreHooks<PriorityClass> {
  const defaultClass = async (): Promise<PriorityClass | undefined> => {
    const list = await store.list('', { predicate: buildPredicate(store.def), resourceVersion: '0' });
    let found: PriorityClass | undefined;
    for (const pc of list.items) if (pc.globalDefault && (!found || (found.value ?? 0) > (pc.value ?? 0))) found = pc;
    return found;
  };
  const check = async (obj: PriorityClass, creating: boolean): Promise<void> => {
    if (!obj.globalDefault) return;
    const current = await defaultClass();
    if (current && (creating || current.metadata.name !== obj.metadata.name))
      throw forbidden(
        store.def.plural,
        obj.metadata.name ?? '',
        `PriorityClass ${current.metadata.name} is already marked as default. Only one default can exist`,
        store.def.group,
      );
  };
  return {
    beforeCreate: (obj) => check(obj, true),
    beforeUpdate: (obj) => check(obj, false),
  };
}
