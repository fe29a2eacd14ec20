/**
 * Binding a pod to a node (upstream pkg/registry/core/pod/storage/storage.go BindingREST):
 * a guaranteed update of the pod that sets spec.nodeName, merges the binding's annotations and
 * sets the PodScheduled condition. Served at POST .../bindings and POST .../pods/{name}/binding,
 * both through {@link bindingCreate}.
 */
import { rfc3339, type ApiObject } from '../../api/object.js';
import { successStatus, type Status } from '../../api/status.js';
import { badRequest, conflict, invalid } from '../../errors/api-error.js';
import type { CreateAnswer, CreateRequest, ResourceStore } from '../../registry/types.js';
import type { Pod } from '../pods/pods.schema.js';
import type { Binding } from './bindings.schema.js';

/**
 * Bind the pod named by `binding.metadata.name` in `namespace` to `binding.target.name`.
 * Returns the 201 Success Status (a dry run checks everything and binds nothing). Throws
 * ApiError 404 (no pod), 409 (already bound or being deleted), 422 (no target).
 */
export async function bindPod(
  pods: ResourceStore<Pod>,
  namespace: string,
  binding: ApiObject,
  dryRun = false,
): Promise<Status> {
  const name = binding.metadata?.name ?? '';
  // The body of pods/binding is not checked against the Binding schema (that of bindings is).
  const target: Partial<Binding['target']> = (binding as Binding).target ?? {};
  if (!name)
    throw invalid('Binding', '', [
      {
        reason: 'FieldValueRequired',
        field: 'metadata.name',
        message: 'Required value: name or generateName is required',
      },
    ]);
  if (binding.metadata.namespace && namespace && binding.metadata.namespace !== namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  if (!target.name)
    throw invalid('Binding', name, [{ reason: 'FieldValueRequired', field: 'target.name', message: 'Required value' }]);
  if (target.kind && target.kind !== 'Node') {
    throw invalid('Binding', name, [
      {
        reason: 'FieldValueNotSupported',
        field: 'target.kind',
        message: `Unsupported value: "${target.kind}": supported values: "Node"`,
      },
    ]);
  }
  const fail = (why: string) => conflict('pods/binding', name, why);
  await pods.mutate(
    namespace,
    name,
    (cur) => {
      const pod = structuredClone(cur);
      if (pod.metadata.deletionTimestamp) throw fail(`pod ${name} is being deleted, cannot be assigned to a host`);
      if (pod.spec?.nodeName) throw fail(`pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
      // A stored pod has a spec (its validation requires containers).
      if (pod.spec) pod.spec.nodeName = target.name;
      else pod.spec = { containers: [], nodeName: target.name };
      const annotations = binding.metadata.annotations;
      if (annotations) pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), ...annotations };
      const status = pod.status ?? {};
      const conditions = (status.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
      conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339() });
      pod.status = { ...status, conditions };
      return pod;
    },
    { dryRun, operation: 'POST' },
  );
  return successStatus(undefined, 201);
}

/**
 * The create of Binding objects and of the pods/binding subresource (upstream
 * BindingREST.Create), binding a pod of `pods`.
 */
export async function bindingCreate(req: CreateRequest, pods: ResourceStore<Pod>): Promise<CreateAnswer> {
  return { code: 201, body: await bindPod(pods, req.namespace, req.body, req.dryRun) };
}
