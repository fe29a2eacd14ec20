/**
 * Shared pieces of the admission webhook tests: a v1 configuration builder (ConfigMaps in the
 * core group by default, sideEffects None, AdmissionReview v1) and a retry helper for the
 * moment a new configuration reaches the server's mirror.
 */
export const MUTATING = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
export const VALIDATING = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';

/** A v1 configuration of `kind` named `name` with `webhooks`; `rule` overrides the one rule's fields. */
export function configuration(
  kind: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration',
  name: string,
  webhooks: ({ name: string; url?: string; caBundle?: string } & Record<string, unknown>)[],
  rule: Record<string, unknown> = {},
) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind,
    metadata: { name },
    webhooks: webhooks.map(({ name: hookName, url, caBundle, ...rest }) => ({
      name: hookName,
      clientConfig: { ...(url ? { url } : {}), ...(caBundle ? { caBundle } : {}) },
      rules: [
        { operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], ...rule },
      ],
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      ...rest,
    })),
  };
}

/** Call `f` until `done` holds for its result (every 20 ms, up to 5 s); the last result. */
export async function eventually<T>(f: () => Promise<T>, done: (r: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const r = await f();
    if (done(r) || Date.now() > deadline) return r;
    await new Promise((res) => setTimeout(res, 20));
  }
}
