/**
 * The labels the node lifecycle controller keeps in step (upstream 1.33
 * node_lifecycle_controller.go labelReconcileInfo and reconcileNodeLabels): the beta OS and
 * architecture labels follow the stable ones, and are added when missing.
 */

const RECONCILED: readonly (readonly [primary: string, secondary: string])[] = [
  ['kubernetes.io/os', 'beta.kubernetes.io/os'],
  ['kubernetes.io/arch', 'beta.kubernetes.io/arch'],
];

/** The labels to set on a node with `labels` (empty when they agree already). */
export function labelsToReconcile(labels: Readonly<Record<string, string>> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!labels) return out;
  for (const [primary, secondary] of RECONCILED) {
    const value = labels[primary];
    if (value === undefined) continue;
    if (labels[secondary] !== value) out[secondary] = value;
  }
  return out;
}
