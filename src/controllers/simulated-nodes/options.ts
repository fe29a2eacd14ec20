/**
 * The settings of the simulated nodes and of the node agent played for them: how many nodes,
 * what each reports, and how long each stage of a pod's life takes (the idea of kwok's `Stage`
 * resources, as a small options object). Durations are milliseconds.
 *
 * A pod bound to a simulated node goes through these stages (pod-status.ts):
 *  1. `Pending` with its containers Waiting (`ContainerCreating`, or `PodInitializing` when it
 *     has init containers) for `podStartMs`: the sandbox and network are being set up;
 *  2. its init containers run one after another, `initContainerRunMs` each, and end
 *     `Completed` (exit code 0); a sidecar (an init container with restartPolicy Always)
 *     starts and keeps running;
 *  3. its containers run (`Running`); a container is ready at once without a readinessProbe,
 *     after the probe's `initialDelaySeconds` with one (and only once a startupProbe's
 *     `initialDelaySeconds` has passed);
 *  4. the containers exit, when they do: after the pod's `sim.ck.io/run-seconds` annotation,
 *     else, for restartPolicy Never or OnFailure (a job's pod), after `finitePodRunMs`; with
 *     the code of the `sim.ck.io/exit-code` annotation (default 0). The pod then ends
 *     `Succeeded` or `Failed`, or the container is restarted as its restartPolicy says, after a
 *     back-off of `restartBackoffMs` doubling up to `maxRestartBackoffMs` (upstream 10 s, 5 min);
 *  5. a pod marked for deletion is removed (a delete with grace 0 and its uid as precondition)
 *     once its containers have stopped, as a kubelet confirms the deletion: they stop
 *     `podTerminationMs` after the node sees the deletion (a process ending on SIGTERM), at the latest when
 *     the grace period ends (SIGKILL).
 * Annotations on a pod change its stages (pod-overrides.ts): `sim.ck.io/start-delay-seconds`,
 * `ready-delay-seconds`, `never-ready`, `image-pull-error`, `termination-seconds`,
 * `ignore-sigterm`, besides `run-seconds` and `exit-code`. A configuration file sets the
 * options (config-file.ts).
 */

import type { PodStage } from './stages.js';

/** Annotation on a pod: seconds (a decimal number) its containers run before they exit. */
export const RUN_SECONDS_ANNOTATION = 'sim.ck.io/run-seconds';
/** Annotation on a pod: the exit code its containers end with (an integer, default 0). */
export const EXIT_CODE_ANNOTATION = 'sim.ck.io/exit-code';
/** Annotation on a pod: seconds (decimal) it stays Pending / ContainerCreating, in place of `podStartMs`. */
export const START_DELAY_ANNOTATION = 'sim.ck.io/start-delay-seconds';
/** Annotation on a pod: seconds (decimal) after they start until its containers are ready, in place of the readinessProbe's delay. */
export const READY_DELAY_ANNOTATION = 'sim.ck.io/ready-delay-seconds';
/** Annotation on a pod, "true": its containers run but never become ready. */
export const NEVER_READY_ANNOTATION = 'sim.ck.io/never-ready';
/**
 * Annotation on a pod: its images cannot be pulled: "true" (every container) or a comma-separated
 * list of container names. Those containers stay Waiting, `ErrImagePull` then `ImagePullBackOff`.
 */
export const IMAGE_PULL_ERROR_ANNOTATION = 'sim.ck.io/image-pull-error';
/** Annotation on a pod: seconds (decimal) its containers take to stop once it is deleted, in place of `podTerminationMs`. */
export const TERMINATION_SECONDS_ANNOTATION = 'sim.ck.io/termination-seconds';
/** Annotation on a pod, "true": its containers ignore SIGTERM, so it is removed when its grace period ends. */
export const IGNORE_SIGTERM_ANNOTATION = 'sim.ck.io/ignore-sigterm';
export { SIMULATED_NODE_LABEL } from '../../resources/nodes/simulated-node.js';

export interface SimulatedNodesOptions {
  /** How many nodes (`--simulated-nodes`): `sim-node-0` ... `sim-node-<count-1>`. 0 = the controller does nothing. */
  readonly count: number;
  /** Prefix of the node names (default `sim-node-`). */
  readonly namePrefix?: string;
  /**
   * CIDR the nodes' InternalIP addresses come from (default `172.18.0.0/16`, the network kind's
   * nodes use): node i gets the (i+2)th address (the first is the network, the second its gateway).
   */
  readonly nodeIpRange?: string;
  /**
   * CIDR the nodes' pod CIDRs are cut from (kube-controller-manager's `--cluster-cidr`;
   * default `10.64.0.0/10`, room for 16384 nodes), `nodeCidrMaskSize` bits each (default 24).
   */
  readonly clusterCidr?: string;
  readonly nodeCidrMaskSize?: number;
  /** Node capacity (default cpu 32, memory 256Gi, pods 110, ephemeral-storage 100Gi, hugepages 0). */
  readonly capacity?: Readonly<Record<string, string>>;
  /** Node allocatable (default: the capacity). */
  readonly allocatable?: Readonly<Record<string, string>>;
  /** `node.kubernetes.io/instance-type` label (default `sim.32xlarge`). */
  readonly instanceType?: string;
  /** Reported kubelet version (nodeInfo agentVersion; default v1.33.1). */
  readonly kubeletVersion?: string;
  /** Stage: Pending / ContainerCreating before the first container starts (default 500). */
  readonly podStartMs?: number;
  /** Stage: how long each regular init container runs (default 200). */
  readonly initContainerRunMs?: number;
  /** Stage: how long containers of a restartPolicy Never/OnFailure pod run without a run-seconds annotation (default 1000; null: forever). */
  readonly finitePodRunMs?: number | null;
  /** Stage: how long containers take to stop once their pod is deleted, within its grace period (default 1000; null: the whole grace period). */
  readonly podTerminationMs?: number | null;
  /** Stage: the first restart back-off, doubled per restart (default 10 000, upstream's). */
  readonly restartBackoffMs?: number;
  /** The longest restart back-off (default 300 000, upstream's). */
  readonly maxRestartBackoffMs?: number;
  /** How often each node renews its Lease in kube-node-lease (default 10 000, upstream's). */
  readonly leaseRenewMs?: number;
  /** The Lease's leaseDurationSeconds (default 40, upstream's). */
  readonly leaseDurationSeconds?: number;
  /** How often node status is written when nothing changed (nodeStatusReportFrequency; default 300 000, upstream's 5 min). */
  readonly nodeStatusReportMs?: number;
  /** How often every pod is re-examined besides its watch events (default 30 000). */
  readonly resyncMs?: number;
  /**
   * kwok `Stage`s for pods (stages.ts): when any is given, they replace the built-in stages
   * and the per-pod annotations above (default none).
   */
  readonly stages?: readonly PodStage[];
}

/** The options with every default filled in. */
export type ResolvedOptions = Required<
  Omit<SimulatedNodesOptions, 'allocatable' | 'finitePodRunMs' | 'podTerminationMs'>
> & {
  readonly podTerminationMs: number | null;
  readonly allocatable: Readonly<Record<string, string>>;
  readonly finitePodRunMs: number | null;
};

/** Upstream-like capacity of a large node. */
export const DEFAULT_CAPACITY: Readonly<Record<string, string>> = Object.freeze({
  cpu: '32',
  'ephemeral-storage': '100Gi',
  'hugepages-1Gi': '0',
  'hugepages-2Mi': '0',
  memory: '256Gi',
  pods: '110',
});

/** Fill in the defaults of `opts` (see {@link SimulatedNodesOptions}). */
export function resolveOptions(opts: SimulatedNodesOptions): ResolvedOptions {
  const capacity = opts.capacity ?? DEFAULT_CAPACITY;
  return {
    count: opts.count,
    namePrefix: opts.namePrefix ?? 'sim-node-',
    nodeIpRange: opts.nodeIpRange ?? '172.18.0.0/16',
    clusterCidr: opts.clusterCidr ?? '10.64.0.0/10',
    nodeCidrMaskSize: opts.nodeCidrMaskSize ?? 24,
    capacity,
    allocatable: opts.allocatable ?? capacity,
    instanceType: opts.instanceType ?? 'sim.32xlarge',
    kubeletVersion: opts.kubeletVersion ?? 'v1.33.1',
    podStartMs: opts.podStartMs ?? 500,
    initContainerRunMs: opts.initContainerRunMs ?? 200,
    finitePodRunMs: opts.finitePodRunMs === undefined ? 1000 : opts.finitePodRunMs,
    podTerminationMs: opts.podTerminationMs === undefined ? 1000 : opts.podTerminationMs,
    restartBackoffMs: opts.restartBackoffMs ?? 10_000,
    maxRestartBackoffMs: opts.maxRestartBackoffMs ?? 300_000,
    leaseRenewMs: opts.leaseRenewMs ?? 10_000,
    leaseDurationSeconds: opts.leaseDurationSeconds ?? 40,
    nodeStatusReportMs: opts.nodeStatusReportMs ?? 300_000,
    resyncMs: opts.resyncMs ?? 30_000,
    stages: opts.stages ?? [],
  };
}
