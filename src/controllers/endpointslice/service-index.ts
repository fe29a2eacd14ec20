/**
 * The Services and pods as the Endpoints and EndpointSlice controllers last saw them (upstream's
 * service and pod listers with the addPod/updatePod/deletePod handlers both controllers share):
 * which Services a pod's change concerns.
 */
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { Service } from '../../resources/services/services.schema.js';
import { keyOf, podServiceMemberships, servicesToUpdateOnPodChange } from './pod-util.js';

export class ServiceIndex {
  private readonly services = new Map<string, Service>();
  private readonly podsSeen = new Map<string, Pod>();

  /** Record a Service watch event (`type` ADDED, MODIFIED or DELETED); returns its key `<ns>/<name>`. */
  onService(type: string, svc: Service): string {
    const key = keyOf(svc);
    if (type === 'DELETED') this.services.delete(key);
    else this.services.set(key, svc);
    return key;
  }

  /**
   * Record a pod watch event; returns the keys of the Services whose endpoints it may change:
   * for an update, those selecting the pod before or after when something they show changed
   * (upstream GetServicesToUpdateOnPodChange), else those selecting it (podServiceMemberships).
   */
  onPod(type: string, pod: Pod): Set<string> {
    const key = keyOf(pod);
    const old = this.podsSeen.get(key);
    if (type === 'DELETED') this.podsSeen.delete(key);
    else this.podsSeen.set(key, pod);
    const services = [...this.services.values()];
    return type === 'MODIFIED' && old
      ? servicesToUpdateOnPodChange(services, old, pod)
      : podServiceMemberships(services, pod);
  }
}
