/**
 * The simulated nodes' configuration file (`--simulated-nodes-config=<file>`): YAML (or JSON)
 * with any field of {@link SimulatedNodesOptions}, under the same names, e.g.
 *
 * ```yaml
 * apiVersion: sim.ck.io/v1alpha1          # optional
 * kind: SimulatedNodesConfiguration        # optional
 * podStartMs: 2s                           # a duration: ms as a number, or Go's "1.5s", "300ms", "1m"
 * finitePodRunMs: null                     # job pods run until deleted
 * capacity: { cpu: "8", memory: 32Gi, pods: "110" }
 * ```
 *
 * Further documents (after `---`) may be kwok Stage documents (stages.ts), which become the
 * `stages` option. Validated with zod; unknown fields are refused (a misspelt option would
 * otherwise be ignored).
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { parseGoDuration } from './duration.js';
import type { SimulatedNodesOptions } from './options.js';
import { stageSchema, type PodStage } from './stages.js';

/** A configuration file that cannot be read or is not valid; the message names the file and field. */
export class SimulatedNodesConfigError extends Error {}

/** A duration in ms: a non-negative number, or a Go duration string. */
export const durationMs = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const ms = typeof v === 'number' ? v : parseGoDuration(v.trim());
  if (ms === undefined || ms < 0 || !Number.isFinite(ms)) {
    const message = `not a duration: ${JSON.stringify(v)} (a number of ms >= 0, or e.g. "500ms", "2s", "1m")`;
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  }
  return ms;
});

const quantities = z.record(z.string(), z.union([z.string(), z.number()]).transform(String));

/** The options part of the file (every field optional). */
export const optionsSchema = z
  .object({
    apiVersion: z.string().optional(),
    kind: z.literal('SimulatedNodesConfiguration').optional(),
    count: z.number().int().nonnegative().optional(),
    namePrefix: z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9-])?$/, 'must be a DNS-1123 subdomain prefix')
      .optional(),
    nodeIpRange: z.string().optional(),
    clusterCidr: z.string().optional(),
    nodeCidrMaskSize: z.number().int().min(1).max(32).optional(),
    capacity: quantities.optional(),
    allocatable: quantities.optional(),
    instanceType: z.string().optional(),
    kubeletVersion: z.string().optional(),
    podStartMs: durationMs.optional(),
    initContainerRunMs: durationMs.optional(),
    finitePodRunMs: durationMs.nullable().optional(),
    podTerminationMs: durationMs.nullable().optional(),
    restartBackoffMs: durationMs.optional(),
    maxRestartBackoffMs: durationMs.optional(),
    leaseRenewMs: durationMs.optional(),
    leaseDurationSeconds: z.number().int().positive().optional(),
    nodeStatusReportMs: durationMs.optional(),
    resyncMs: durationMs.optional(),
  })
  .strict();

function describeIssues(where: string, error: z.ZodError): string {
  const lines = error.issues.map((i) => {
    const at = i.path.length ? i.path.join('.') : '(document)';
    return `  ${at}: ${i.message}`;
  });
  return `simulated nodes config ${where}:\n${lines.join('\n')}`;
}

/** The Stage document `value` (the `n`th document of `file`), its statusTemplate decoded. */
function parseStage(value: unknown, file: string, n: number): PodStage {
  const where = `${file} (document ${n}, Stage)`;
  const parsed = stageSchema.safeParse(value);
  if (!parsed.success) throw new SimulatedNodesConfigError(describeIssues(where, parsed.error));
  const template = parsed.data.spec.next.statusTemplate;
  if (template === undefined) return parsed.data;
  let status: unknown;
  try {
    status = parseYaml(template);
  } catch (err) {
    throw new SimulatedNodesConfigError(
      `simulated nodes config ${where}: spec.next.statusTemplate: ${(err as Error).message}`,
    );
  }
  if (status !== null && (typeof status !== 'object' || Array.isArray(status)))
    throw new SimulatedNodesConfigError(
      `simulated nodes config ${where}: spec.next.statusTemplate: not a YAML mapping`,
    );
  return { ...parsed.data, status: (status ?? {}) as Record<string, unknown> };
}

const kindOf = (v: unknown) => (v && typeof v === 'object' ? (v as { kind?: unknown }).kind : undefined);

/**
 * The options set by the configuration `text` (YAML or JSON, `---` between documents; `file`
 * names it in errors): at most one options document, and any number of kwok Stage documents
 * (kind Stage), which become `stages`. Throws SimulatedNodesConfigError for malformed YAML, a
 * field of the wrong type, an unknown field, a Stage using what is not supported (stages.ts)
 * or two options documents.
 */
export function parseSimulatedNodesConfig(text: string, file = '<config>'): Partial<SimulatedNodesOptions> {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) throw new SimulatedNodesConfigError(`simulated nodes config ${file}: not YAML`);
  const values: unknown[] = [];
  const stages: PodStage[] = [];
  docs.forEach((doc, i) => {
    if (doc.errors.length)
      throw new SimulatedNodesConfigError(`simulated nodes config ${file}: ${doc.errors[0]!.message}`);
    const value: unknown = doc.toJS();
    if (kindOf(value) === 'Stage') stages.push(parseStage(value, file, i + 1));
    else if (value !== null && value !== undefined) values.push(value);
  });
  if (values.length > 1)
    throw new SimulatedNodesConfigError(
      `simulated nodes config ${file}: expected one options document, found ${values.length}`,
    );
  const parsed = optionsSchema.safeParse(values[0] ?? {});
  if (!parsed.success) throw new SimulatedNodesConfigError(describeIssues(file, parsed.error));
  const { apiVersion: _v, kind: _k, ...options } = parsed.data;
  const set = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  return { ...set, ...(stages.length ? { stages } : {}) } as Partial<SimulatedNodesOptions>;
}
/**
 * The options set by the configuration file at `path` (`--simulated-nodes-config`), to merge
 * under the flags' values. Throws SimulatedNodesConfigError when the file cannot be read or is
 * not valid (see {@link parseSimulatedNodesConfig}).
 */
export function loadSimulatedNodesConfig(path: string): Partial<SimulatedNodesOptions> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? String(err);
    throw new SimulatedNodesConfigError(`simulated nodes config ${path}: cannot read the file (${reason})`);
  }
  return parseSimulatedNodesConfig(text, path);
}
