/**
 * What a process in a simulated container sees, as the kubelet sets it up: the host name
 * (spec.hostname, else the pod's name, at most 63 characters), the environment (PATH, HOSTNAME,
 * the container's variables with a literal `value`, the `kubernetes` service's variables and
 * HOME; upstream pkg/kubelet/kubelet_pods.go makeEnvironmentVariables, envvars.FromServices),
 * /etc/hostname, the kubelet-managed /etc/hosts (kubelet_pods.go managedHostsFileContent) and
 * /etc/resolv.conf of dnsPolicy ClusterFirst (pkg/kubelet/network/dns), and the user id.
 */
import type { Pod } from '../pods.schema.js';
import type { ShellContext } from './shell.js';

/** The PATH of a small Linux image. */
export const IMAGE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The cluster's domain (the kubelet's default --cluster-domain). */
export const CLUSTER_DOMAIN = 'cluster.local';

/** The pod's host name as the kubelet gives it (GeneratePodHostNameAndDomain). */
export function podHostname(pod: Pod): string {
  return (pod.spec?.hostname || pod.metadata.name || '').slice(0, 63).replace(/[-.]+$/, '');
}

/** The cluster DNS address: the 10th address of the service range (kubeadm's choice), from the `kubernetes` service's IP. */
export function clusterDnsIp(kubernetesIp: string): string {
  const v4 = /^(\d+\.\d+\.\d+)\.\d+$/.exec(kubernetesIp);
  if (v4) return `${v4[1]}.10`;
  return kubernetesIp.replace(/:[0-9a-f]*$/i, ':a');
}

/** The variables of the `kubernetes` service (port 443) as the kubelet injects them. */
function kubernetesServiceEnv(ip: string): [string, string][] {
  const host = ip.includes(':') ? `[${ip}]` : ip;
  return [
    ['KUBERNETES_SERVICE_HOST', ip],
    ['KUBERNETES_SERVICE_PORT', '443'],
    ['KUBERNETES_SERVICE_PORT_HTTPS', '443'],
    ['KUBERNETES_PORT', `tcp://${host}:443`],
    ['KUBERNETES_PORT_443_TCP', `tcp://${host}:443`],
    ['KUBERNETES_PORT_443_TCP_PROTO', 'tcp'],
    ['KUBERNETES_PORT_443_TCP_PORT', '443'],
    ['KUBERNETES_PORT_443_TCP_ADDR', ip],
  ];
}

/** The kubelet-managed /etc/hosts of a pod (not on the host network). */
function hostsFile(pod: Pod, hostname: string): string {
  const lines = [
    '# Kubernetes-managed hosts file.',
    '127.0.0.1\tlocalhost',
    '::1\tlocalhost ip6-localhost ip6-loopback',
    'fe00::0\tip6-localnet',
    'fe00::0\tip6-mcastprefix',
    'fe00::1\tip6-allnodes',
    'fe00::2\tip6-allrouters',
  ];
  const subdomain = pod.spec?.subdomain;
  const fqdn = subdomain ? `${hostname}.${subdomain}.${pod.metadata.namespace}.svc.${CLUSTER_DOMAIN}\t` : '';
  for (const ip of pod.status?.podIPs?.map((p) => p.ip) ?? (pod.status?.podIP ? [pod.status.podIP] : []))
    lines.push(`${ip}\t${fqdn}${hostname}`);
  const aliases = pod.spec?.hostAliases ?? [];
  if (aliases.length) {
    lines.push('', '# Entries added by HostAliases.');
    for (const a of aliases) lines.push(`${a.ip}\t${(a.hostnames ?? []).join('\t')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** /etc/resolv.conf of dnsPolicy ClusterFirst (the default), with the pod's dnsConfig added. */
function resolvConf(pod: Pod, dnsIp: string): string {
  const ns = pod.metadata.namespace;
  const config = pod.spec?.dnsConfig;
  const nameservers = [dnsIp, ...(config?.nameservers ?? [])];
  const searches = [
    `${ns}.svc.${CLUSTER_DOMAIN}`,
    `svc.${CLUSTER_DOMAIN}`,
    CLUSTER_DOMAIN,
    ...(config?.searches ?? []),
  ];
  const options = new Map<string, string | undefined>([['ndots', '5']]);
  for (const o of config?.options ?? []) if (o.name) options.set(o.name, o.value ?? undefined);
  const opts = [...options].map(([k, v]) => (v === undefined ? k : `${k}:${v}`));
  return `search ${searches.join(' ')}\n${nameservers.map((n) => `nameserver ${n}\n`).join('')}options ${opts.join(' ')}\n`;
}

/**
 * The shell context of container `container` of `pod`, with the `kubernetes` service at
 * `kubernetesIp` and the clock `now`. `tty`: an interactive `sh` prompts.
 */
export function containerContext(
  pod: Pod,
  container: string,
  kubernetesIp: string,
  opts: { tty: boolean; now: () => Date },
): ShellContext {
  const spec = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].find((c) => c.name === container);
  const hostname = podHostname(pod);
  const env: [string, string][] = [
    ['PATH', IMAGE_PATH],
    ['HOSTNAME', hostname],
  ];
  for (const e of spec?.env ?? []) {
    if (e.valueFrom) continue;
    const at = env.findIndex(([k]) => k === e.name);
    if (at >= 0) env.splice(at, 1);
    env.push([e.name, e.value ?? '']);
  }
  for (const kv of kubernetesServiceEnv(kubernetesIp)) if (!env.some(([k]) => k === kv[0])) env.push(kv);
  env.push(['HOME', '/root']);
  const uid = spec?.securityContext?.runAsUser ?? pod.spec?.securityContext?.runAsUser ?? 0;
  return {
    hostname,
    env,
    files: {
      '/etc/hostname': `${hostname}\n`,
      '/etc/hosts': hostsFile(pod, hostname),
      '/etc/resolv.conf': resolvConf(pod, clusterDnsIp(kubernetesIp)),
    },
    uid,
    prompt: opts.tty ? (uid === 0 ? '/ # ' : '/ $ ') : undefined,
    now: opts.now,
  };
}
