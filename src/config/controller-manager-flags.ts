/**
 * kube-controller-manager's flags for the controllers the leader runs (upstream
 * cmd/kube-controller-manager/app/options: the horizontal pod autoscaler, the node lifecycle,
 * certificate signing and the root CA publisher), with upstream's names, defaults and help, and
 * `--simulated-nodes-config`. Durations are Go durations (`15s`, `8760h0m0s`) as upstream's
 * DurationVar reads them; each flag also reads `CK_<FLAG>` like every other.
 */
import { parseGoDurationMs } from '../api/go-duration.js';
import { errorMessage } from '../api/error-message.js';

/** The flags' help, by flag name (without `--`). */
export const CONTROLLER_MANAGER_FLAGS: Readonly<Record<string, { help: string }>> = {
  'horizontal-pod-autoscaler-sync-period': {
    help: 'The period for syncing the number of pods in horizontal pod autoscaler. (default 15s)',
  },
  'horizontal-pod-autoscaler-tolerance': {
    help: 'The minimum change (from 1.0) in the desired-to-actual metrics ratio for the horizontal pod autoscaler to consider scaling. (default 0.1)',
  },
  'horizontal-pod-autoscaler-downscale-stabilization': {
    help: 'The period for which autoscaler will look backwards and not scale down below any recommendation it made during that period. (default 5m0s)',
  },
  'horizontal-pod-autoscaler-initial-readiness-delay': {
    help: 'The period after pod start during which readiness changes will be treated as initial readiness. (default 30s)',
  },
  'horizontal-pod-autoscaler-cpu-initialization-period': {
    help: 'The period after pod start when CPU samples might be skipped. (default 5m0s)',
  },
  'node-monitor-period': { help: 'The period for syncing NodeStatus in NodeController. (default 5s)' },
  'node-monitor-grace-period': {
    help: 'Amount of time which we allow running Node to be unresponsive before marking it unhealthy. (default 50s)',
  },
  'node-startup-grace-period': {
    help: 'Amount of time which we allow starting Node to be unresponsive before marking it unhealthy. (default 1m0s)',
  },
  'node-eviction-rate': {
    help: 'Number of nodes per second on which pods are deleted in case of node failure when a zone is healthy. (default 0.1)',
  },
  'secondary-node-eviction-rate': {
    help: 'Number of nodes per second on which pods are deleted in case of node failure when a zone is unhealthy. (default 0.01)',
  },
  'large-cluster-size-threshold': {
    help: 'Number of nodes from which node-lifecycle-controller treats the cluster as large for the eviction logic purposes. (default 50)',
  },
  'unhealthy-zone-threshold': {
    help: 'Fraction of Nodes in a zone which needs to be not Ready (minimum 3) for zone to be treated as unhealthy. (default 0.55)',
  },
  'cluster-signing-cert-file': {
    help: 'Filename containing a PEM-encoded X509 CA certificate used to issue cluster-scoped certificates (default: the generated CA, when it is the client CA)',
  },
  'cluster-signing-key-file': {
    help: 'Filename containing a PEM-encoded RSA or ECDSA private key used to sign cluster-scoped certificates',
  },
  ...Object.fromEntries(
    ['kubelet-serving', 'kubelet-client', 'kube-apiserver-client', 'legacy-unknown'].flatMap((signer) => [
      [
        `cluster-signing-${signer}-cert-file`,
        {
          help: `Filename containing a PEM-encoded X509 CA certificate used to issue certificates for the kubernetes.io/${signer} signer`,
        },
      ],
      [
        `cluster-signing-${signer}-key-file`,
        {
          help: `Filename containing a PEM-encoded RSA or ECDSA private key used to sign certificates for the kubernetes.io/${signer} signer`,
        },
      ],
    ]),
  ),
  'cluster-signing-duration': {
    help: 'The max length of duration signed certificates will be given. (default 8760h0m0s)',
  },
  'root-ca-file': {
    help: 'If set, this root certificate authority is published as kube-root-ca.crt in every namespace (default: the generated serving CA)',
  },
  'simulated-nodes-config': {
    help: "file with the simulated nodes' settings and kwok Stage documents for their pods (YAML or JSON); see docs/simulated-nodes.md",
  },
};

/** The four built-in signers with flags of their own. */
export type SignerFlagName = 'kubelet-serving' | 'kubelet-client' | 'kube-apiserver-client' | 'legacy-unknown';

/** What those flags say; each absent field is upstream's default (the controllers hold them). */
export interface ControllerManagerConfig {
  readonly hpa: {
    readonly syncPeriodMs?: number;
    readonly tolerance?: number;
    readonly downscaleStabilizationMs?: number;
    readonly initialReadinessDelayMs?: number;
    readonly cpuInitializationPeriodMs?: number;
  };
  readonly nodeLifecycle: {
    readonly nodeMonitorPeriodMs?: number;
    readonly nodeMonitorGracePeriodMs?: number;
    readonly nodeStartupGracePeriodMs?: number;
    readonly evictionLimiterQps?: number;
    readonly secondaryEvictionLimiterQps?: number;
    readonly largeClusterThreshold?: number;
    readonly unhealthyZoneThreshold?: number;
  };
  readonly signing: {
    readonly clusterSigningCertFile?: string;
    readonly clusterSigningKeyFile?: string;
    readonly signerFiles: Partial<Record<`kubernetes.io/${SignerFlagName}`, { certFile?: string; keyFile?: string }>>;
    readonly clusterSigningDurationSeconds?: number;
  };
  readonly rootCaFile?: string;
  readonly simulatedNodesConfig?: string;
}

/**
 * Read the flags from `raw` (flag name -> value). Throws Error (the caller's ConfigError
 * wraps it) naming the flag: a malformed duration or number, a negative value, a per-signer
 * certificate without its key (upstream's `"cluster-signing-kubelet-serving": cannot specify
 * cert without key`), or single and per-signer files together.
 */
export function controllerManagerConfig(raw: Readonly<Record<string, string | undefined>>): ControllerManagerConfig {
  const duration = (flag: string): number | undefined => {
    const v = raw[flag];
    if (v === undefined) return undefined;
    let ms: number;
    try {
      ms = parseGoDurationMs(v);
    } catch (err) {
      throw new Error(`invalid --${flag} "${v}": ${errorMessage(err)}`, { cause: err });
    }
    if (ms < 0) throw new Error(`invalid --${flag} "${v}": must not be negative`);
    return ms;
  };
  const number = (flag: string, integer = false): number | undefined => {
    const v = raw[flag];
    if (v === undefined) return undefined;
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n)))
      throw new Error(`invalid --${flag} "${v}": not a ${integer ? 'whole ' : ''}number >= 0`);
    return n;
  };
  const file = (flag: string) => raw[flag] || undefined;
  const signerFiles: ControllerManagerConfig['signing']['signerFiles'] = {};
  for (const signer of ['kubelet-serving', 'kubelet-client', 'kube-apiserver-client', 'legacy-unknown'] as const) {
    const certFile = file(`cluster-signing-${signer}-cert-file`);
    const keyFile = file(`cluster-signing-${signer}-key-file`);
    if (certFile && !keyFile) throw new Error(`"cluster-signing-${signer}": cannot specify cert without key`);
    if (keyFile && !certFile) throw new Error(`"cluster-signing-${signer}": cannot specify key without cert`);
    if (certFile) signerFiles[`kubernetes.io/${signer}`] = { certFile, keyFile };
  }
  const clusterSigningCertFile = file('cluster-signing-cert-file');
  const clusterSigningKeyFile = file('cluster-signing-key-file');
  if (Boolean(clusterSigningCertFile) !== Boolean(clusterSigningKeyFile))
    throw new Error('--cluster-signing-cert-file and --cluster-signing-key-file go together');
  if (clusterSigningCertFile && Object.keys(signerFiles).length)
    throw new Error('cannot specify default and per controller certs at the same time');
  const signingDurationMs = duration('cluster-signing-duration');
  return {
    hpa: {
      syncPeriodMs: duration('horizontal-pod-autoscaler-sync-period'),
      tolerance: number('horizontal-pod-autoscaler-tolerance'),
      downscaleStabilizationMs: duration('horizontal-pod-autoscaler-downscale-stabilization'),
      initialReadinessDelayMs: duration('horizontal-pod-autoscaler-initial-readiness-delay'),
      cpuInitializationPeriodMs: duration('horizontal-pod-autoscaler-cpu-initialization-period'),
    },
    nodeLifecycle: {
      nodeMonitorPeriodMs: duration('node-monitor-period'),
      nodeMonitorGracePeriodMs: duration('node-monitor-grace-period'),
      nodeStartupGracePeriodMs: duration('node-startup-grace-period'),
      evictionLimiterQps: number('node-eviction-rate'),
      secondaryEvictionLimiterQps: number('secondary-node-eviction-rate'),
      largeClusterThreshold: number('large-cluster-size-threshold', true),
      unhealthyZoneThreshold: number('unhealthy-zone-threshold'),
    },
    signing: {
      clusterSigningCertFile,
      clusterSigningKeyFile,
      signerFiles,
      clusterSigningDurationSeconds: signingDurationMs === undefined ? undefined : signingDurationMs / 1000,
    },
    rootCaFile: file('root-ca-file'),
    simulatedNodesConfig: file('simulated-nodes-config'),
  };
}

/** Drop the fields left undefined, so that spreading the result keeps a controller's defaults. */
export function defined<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}
