/**
 * Pod rules and defaults upstream added after 1.10, up to 1.33 (docs/validation/pods.md, rows
 * P33-*): ephemeral containers only through their subresource, none in templates, no node
 * before the scheduling gates are gone, SCTP ports, CSI and ephemeral volumes, startup and grpc
 * probes, sidecar init containers, seccomp and AppArmor fields, topology spread constraints,
 * os-specific fields, hostUsers, scheduling and readiness gates, preemptionPolicy, overhead,
 * and enableServiceLinks defaulted on pods (not on templates). One case per rule.
 */
import { describe, expect, it } from 'vitest';
import { validateDns1123Subdomain } from '../../src/api/names.js';
import { isQualifiedName } from '../../src/api/core/validation/strings.js';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const ns = '/api/v1/namespaces/default';

let n = 0;
const spec = (extra: Record<string, unknown> = {}) => ({ containers: [{ name: 'c', image: 'nginx' }], ...extra });
const pod = (extra: Record<string, unknown> = {}) => ({ metadata: { name: `p33-${n++}` }, spec: spec(extra) });
const ctr = (extra: Record<string, unknown> = {}) => ({ name: 'c', image: 'nginx', ...extra });
const cmd = { command: ['true'] };
const tsc = (extra: Record<string, unknown> = {}) => ({
  maxSkew: 1,
  topologyKey: 'zone',
  whenUnsatisfiable: 'DoNotSchedule',
  labelSelector: { matchLabels: { app: 'a' } },
  ...extra,
});
const QUALIFIED = isQualifiedName('bad key!')[0];
const SUBDOMAIN = validateDns1123Subdomain('Bad_Name')[0];
const causes = (res: { body: any }) => res.body.details?.causes?.map((c: any) => `${c.field}: ${c.message}`);

describe('pod rules since 1.10', () => {
  it.each([
    [
      'P33-1 ephemeral containers cannot be set on create',
      'pods',
      pod({ ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }),
      ['spec.ephemeralContainers: Forbidden: cannot be set on create'],
    ],
    [
      'P33-2 no ephemeral containers in a pod template',
      'podtemplates',
      {
        metadata: { name: `t33-${n++}` },
        template: { spec: spec({ ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }) },
      },
      ['template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template'],
    ],
    [
      'P33-3 no node before the scheduling gates are cleared',
      'pods',
      pod({ nodeName: 'node-1', schedulingGates: [{ name: 'example.com/gate' }] }),
      ['spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared'],
    ],
    [
      'P33-4 a CSI volume names its driver as a DNS subdomain',
      'pods',
      pod({ volumes: [{ name: 'v', csi: { driver: 'Bad_Driver' } }] }),
      [
        `spec.volumes[0].csi.driver: Invalid value: "Bad_Driver": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    ],
    [
      'P33-5 an ephemeral volume has a claim template',
      'pods',
      pod({ volumes: [{ name: 'v', ephemeral: {} }] }),
      ['spec.volumes[0].ephemeral.volumeClaimTemplate: Required value'],
    ],
    [
      'P33-6 image volumes are gated off (no volume type left)',
      'pods',
      pod({ volumes: [{ name: 'v', image: { reference: 'example.com/data:1' } }] }),
      ['spec.volumes[0]: Required value: must specify a volume type'],
    ],
    // Probes (P33-7..P33-12).
    [
      'P33-7 a startup probe succeeds once',
      'pods',
      pod({ containers: [ctr({ startupProbe: { exec: cmd, successThreshold: 2 } })] }),
      ['spec.containers[0].startupProbe.successThreshold: Invalid value: 2: must be 1'],
    ],
    [
      'P33-8 a startup probe has a handler',
      'pods',
      pod({ containers: [ctr({ startupProbe: { periodSeconds: 5 } })] }),
      ['spec.containers[0].startupProbe: Required value: must specify a handler type'],
    ],
    [
      'P33-9 a grpc probe port is a port number',
      'pods',
      pod({ containers: [ctr({ livenessProbe: { grpc: { port: 70000 } } })] }),
      ['spec.containers[0].livenessProbe.grpc.port: Invalid value: 70000: must be between 1 and 65535, inclusive'],
    ],
    [
      'P33-10 a probe has one handler, grpc included',
      'pods',
      pod({ containers: [ctr({ readinessProbe: { exec: cmd, grpc: { port: 9000 } } })] }),
      ['spec.containers[0].readinessProbe.grpc: Forbidden: may not specify more than 1 handler type'],
    ],
    [
      'P33-11 a probe grace period is above 0',
      'pods',
      pod({ containers: [ctr({ livenessProbe: { exec: cmd, terminationGracePeriodSeconds: 0 } })] }),
      ['spec.containers[0].livenessProbe.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0'],
    ],
    [
      'P33-12 no grace period on a readiness probe',
      'pods',
      pod({ containers: [ctr({ readinessProbe: { exec: cmd, terminationGracePeriodSeconds: 5 } })] }),
      [
        'spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 5: must not be set for readinessProbes',
      ],
    ],
    // Sidecar (restartable init) containers (P33-13..P33-16).
    [
      'P33-13 an init container restartPolicy is Always',
      'pods',
      pod({ initContainers: [ctr({ name: 'i', restartPolicy: 'OnFailure' })] }),
      ['spec.initContainers[0].restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'],
    ],
    [
      'P33-14 no restartPolicy on an app container',
      'pods',
      pod({ containers: [ctr({ restartPolicy: 'Always' })] }),
      ['spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers'],
    ],
    [
      'P33-15 no startup probe on an init container that is not a sidecar',
      'pods',
      pod({ initContainers: [ctr({ name: 'i', startupProbe: { exec: cmd } })] }),
      [
        'spec.initContainers[0].startupProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
      ],
    ],
    [
      'P33-16 a sidecar probe follows the probe rules',
      'pods',
      pod({
        initContainers: [
          ctr({ name: 'i', restartPolicy: 'Always', livenessProbe: { exec: cmd, successThreshold: 3 } }),
        ],
      }),
      ['spec.initContainers[0].livenessProbe.successThreshold: Invalid value: 3: must be 1'],
    ],
    // seccompProfile and appArmorProfile (P33-17..P33-26).
    [
      'P33-17 a seccomp profile type is known',
      'pods',
      pod({ securityContext: { seccompProfile: { type: 'Bad' } } }),
      [
        'spec.securityContext.seccompProfile.type: Unsupported value: "Bad": supported values: "Localhost", "RuntimeDefault", "Unconfined"',
      ],
    ],
    [
      'P33-18 a seccomp profile has a type',
      'pods',
      pod({ securityContext: { seccompProfile: { type: '' } } }),
      ['spec.securityContext.seccompProfile.type: Required value: type is required when seccompProfile is set'],
    ],
    [
      'P33-19 a Localhost seccomp profile names its file',
      'pods',
      pod({ containers: [ctr({ securityContext: { seccompProfile: { type: 'Localhost' } } })] }),
      [
        'spec.containers[0].securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost',
      ],
    ],
    [
      'P33-20 a seccomp profile file stays under the seccomp directory',
      'pods',
      pod({
        containers: [
          ctr({ securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: '../x.json' } } }),
        ],
      }),
      [
        `spec.containers[0].securityContext.seccompProfile.localhostProfile: Invalid value: "../x.json": must not contain '..'`,
      ],
    ],
    [
      'P33-21 a seccomp profile file only with type Localhost',
      'pods',
      pod({ securityContext: { seccompProfile: { type: 'RuntimeDefault', localhostProfile: 'x.json' } } }),
      [
        'spec.securityContext.seccompProfile.localhostProfile: Invalid value: {"type":"RuntimeDefault","localhostProfile":"x.json"}: can only be set when seccomp type is Localhost',
      ],
    ],
    [
      'P33-22 an AppArmor profile type is known',
      'pods',
      pod({ containers: [ctr({ securityContext: { appArmorProfile: { type: 'Bad' } } })] }),
      [
        'spec.containers[0].securityContext.appArmorProfile.type: Unsupported value: "Bad": supported values: "Localhost", "RuntimeDefault", "Unconfined"',
      ],
    ],
    [
      'P33-23 an AppArmor profile has a type',
      'pods',
      pod({ securityContext: { appArmorProfile: { type: '' } } }),
      ['spec.securityContext.appArmorProfile.type: Required value: type is required when appArmorProfile is set'],
    ],
    [
      'P33-24 a Localhost AppArmor profile is named',
      'pods',
      pod({ securityContext: { appArmorProfile: { type: 'Localhost' } } }),
      [
        'spec.securityContext.appArmorProfile.localhostProfile: Required value: must be set when AppArmor type is Localhost',
      ],
    ],
    [
      'P33-25 an AppArmor profile name is not padded',
      'pods',
      pod({ securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: ' p ' } } }),
      [
        'spec.securityContext.appArmorProfile.localhostProfile: Invalid value: " p ": must not be padded with whitespace',
      ],
    ],
    [
      'P33-26 an AppArmor profile name only with type Localhost',
      'pods',
      pod({ securityContext: { appArmorProfile: { type: 'Unconfined', localhostProfile: 'p' } } }),
      [
        'spec.securityContext.appArmorProfile.localhostProfile: Invalid value: "p": can only be set when AppArmor type is Localhost',
      ],
    ],
    // topologySpreadConstraints (P33-27..P33-36).
    [
      'P33-27 maxSkew is above 0',
      'pods',
      pod({ topologySpreadConstraints: [tsc({ maxSkew: 0 })] }),
      ['spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero'],
    ],
    [
      'P33-28 a topologyKey is given',
      'pods',
      pod({ topologySpreadConstraints: [tsc({ topologyKey: '' })] }),
      ['spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty'],
    ],
    [
      'P33-29 whenUnsatisfiable is DoNotSchedule or ScheduleAnyway',
      'pods',
      pod({ topologySpreadConstraints: [tsc({ whenUnsatisfiable: 'Maybe' })] }),
      [
        'spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Maybe": supported values: "DoNotSchedule", "ScheduleAnyway"',
      ],
    ],
    [
      'P33-30 one constraint per (topologyKey, whenUnsatisfiable)',
      'pods',
      pod({ topologySpreadConstraints: [tsc(), tsc({ maxSkew: 2 })] }),
      ['spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"'],
    ],
    [
      'P33-31 minDomains is above 0',
      'pods',
      pod({ topologySpreadConstraints: [tsc({ minDomains: 0 })] }),
      ['spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: must be greater than zero'],
    ],
    [
      'P33-32 minDomains only with DoNotSchedule',
      'pods',
      pod({ topologySpreadConstraints: [tsc({ minDomains: 2, whenUnsatisfiable: 'ScheduleAnyway' })] }),
      [
        'spec.topologySpreadConstraints[0].minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway',
      ],
    ],
    [
      'P33-33 node inclusion policies are Honor or Ignore',
      'pods',
      pod({ topologySpreadConstraints: [tsc({ nodeAffinityPolicy: 'Always', nodeTaintsPolicy: 'Never' })] }),
      [
        'spec.topologySpreadConstraints[0].nodeAffinityPolicy: Unsupported value: "Always": supported values: "Honor", "Ignore"',
        'spec.topologySpreadConstraints[0].nodeTaintsPolicy: Unsupported value: "Never": supported values: "Honor", "Ignore"',
      ],
    ],
    [
      'P33-34 matchLabelKeys need a labelSelector',
      'pods',
      pod({ topologySpreadConstraints: [tsc({ labelSelector: undefined, matchLabelKeys: ['pod-template-hash'] })] }),
      [
        'spec.topologySpreadConstraints[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set',
      ],
    ],
    [
      'P33-35 matchLabelKeys are label names not in the labelSelector',
      'pods',
      pod({ topologySpreadConstraints: [tsc({ matchLabelKeys: ['app', 'bad key!'] })] }),
      [
        'spec.topologySpreadConstraints[0].matchLabelKeys[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector',
        `spec.topologySpreadConstraints[0].matchLabelKeys[1]: Invalid value: "bad key!": ${QUALIFIED}`,
      ],
    ],
    [
      'P33-36 the labelSelector is a valid selector',
      'pods',
      pod({
        topologySpreadConstraints: [tsc({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'In' }] } })],
      }),
      [
        `spec.topologySpreadConstraints[0].labelSelector.matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
      ],
    ],
    // os, hostUsers, gates, preemption, overhead, class names (P33-37..P33-49).
    ['P33-37 an os has a name', 'pods', pod({ os: { name: '' } }), ['spec.os.name: Required value: cannot be empty']],
    [
      'P33-38 the os is linux or windows',
      'pods',
      pod({ os: { name: 'plan9' } }),
      ['spec.os: Unsupported value: "plan9": supported values: "linux", "windows"'],
    ],
    [
      'P33-39 a windows pod sets no Linux-only fields',
      'pods',
      pod({ os: { name: 'windows' }, hostPID: true, containers: [ctr({ securityContext: { privileged: false } })] }),
      [
        'spec.hostPID: Forbidden: cannot be set for a windows pod',
        'spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod',
      ],
    ],
    [
      'P33-40 a linux pod sets no windowsOptions',
      'pods',
      pod({
        os: { name: 'linux' },
        containers: [ctr({ securityContext: { windowsOptions: { runAsUserName: 'u' } } })],
      }),
      ['spec.containers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod'],
    ],
    [
      'P33-41 a user namespace shares no host namespace',
      'pods',
      pod({ hostUsers: false, hostPID: true, hostIPC: true }),
      [
        'spec.HostPID: Forbidden: when `pod.Spec.HostUsers` is false',
        'spec.HostIPC: Forbidden: when `pod.Spec.HostUsers` is false',
      ],
    ],
    [
      'P33-42 scheduling gate names are qualified names',
      'pods',
      pod({ schedulingGates: [{ name: 'bad key!' }] }),
      [`spec.schedulingGates[0]: Invalid value: "bad key!": ${QUALIFIED}`],
    ],
    [
      'P33-43 scheduling gates are unique',
      'pods',
      pod({ schedulingGates: [{ name: 'example.com/a' }, { name: 'example.com/a' }] }),
      ['spec.schedulingGates[1]: Duplicate value: "example.com/a"'],
    ],
    [
      'P33-44 preemptionPolicy is PreemptLowerPriority or Never',
      'pods',
      pod({ preemptionPolicy: 'Sometimes' }),
      ['spec.preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"'],
    ],
    [
      'P33-45 overhead quantities are not negative',
      'pods',
      pod({ overhead: { cpu: '-1' } }),
      ['spec.overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0'],
    ],
    [
      'P33-46 readiness gate condition types are qualified names',
      'pods',
      pod({ readinessGates: [{ conditionType: 'bad key!' }] }),
      [`spec.readinessGates[0].conditionType: Invalid value: "bad key!": ${QUALIFIED}`],
    ],
    [
      'P33-47 priorityClassName is a DNS subdomain',
      'pods',
      pod({ priorityClassName: 'Bad_Name' }),
      [`spec.priorityClassName: Invalid value: "Bad_Name": ${SUBDOMAIN}`],
    ],
    [
      'P33-48 runtimeClassName is a DNS subdomain',
      'pods',
      pod({ runtimeClassName: 'Bad_Name' }),
      [`spec.runtimeClassName: Invalid value: "Bad_Name": ${SUBDOMAIN}`],
    ],
    [
      'P33-49 an AppArmor profile name is at most 4095 characters',
      'pods',
      pod({ securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: 'p'.repeat(4096) } } }),
      ['spec.securityContext.appArmorProfile.localhostProfile: Too long: must have at most 4095 characters'],
    ],
    // Security context rules since 1.10 (P33-50..P33-58).
    [
      'P33-50 runAsGroup is a group id',
      'pods',
      pod({ containers: [ctr({ securityContext: { runAsGroup: -1 } })] }),
      ['spec.containers[0].securityContext.runAsGroup: Invalid value: -1: must be between 0 and 2147483647, inclusive'],
    ],
    [
      'P33-51 no process namespace sharing with the host PID namespace',
      'pods',
      pod({ shareProcessNamespace: true, hostPID: true }),
      [
        'spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled',
      ],
    ],
    [
      'P33-52 a sysctl name is a sysctl name',
      'pods',
      pod({ securityContext: { sysctls: [{ name: 'Bad', value: '1' }] } }),
      [
        'spec.securityContext.sysctls[0].name: Invalid value: "Bad": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$',
      ],
    ],
    [
      'P33-53 sysctls are unique',
      'pods',
      pod({
        securityContext: {
          sysctls: [
            { name: 'kernel.msgmax', value: '1' },
            { name: 'kernel.msgmax', value: '2' },
          ],
        },
      }),
      ['spec.securityContext.sysctls[1].name: Duplicate value: "kernel.msgmax"'],
    ],
    [
      'P33-54 no net sysctls with the host network',
      'pods',
      pod({ hostNetwork: true, securityContext: { sysctls: [{ name: 'net.core.somaxconn', value: '1024' }] } }),
      [
        `spec.securityContext.sysctls[0].name: Invalid value: "net.core.somaxconn": may not be specified when 'hostNetwork' is true`,
      ],
    ],
    [
      'P33-55 no IPC sysctls with the host IPC namespace',
      'pods',
      pod({ hostIPC: true, securityContext: { sysctls: [{ name: 'kernel.shmmax', value: '1' }] } }),
      [
        `spec.securityContext.sysctls[0].name: Invalid value: "kernel.shmmax": may not be specified when 'hostIPC' is true`,
      ],
    ],
    [
      'P33-56 fsGroupChangePolicy is Always or OnRootMismatch',
      'pods',
      pod({ securityContext: { fsGroupChangePolicy: 'Never' } }),
      [
        'spec.securityContext.fsGroupChangePolicy: Unsupported value: "Never": supported values: "Always", "OnRootMismatch"',
      ],
    ],
    [
      'P33-57 supplementalGroupsPolicy is Merge or Strict',
      'pods',
      pod({ securityContext: { supplementalGroupsPolicy: 'Loose' } }),
      [
        'spec.securityContext.supplementalGroupsPolicy: Unsupported value: "Loose": supported values: "Merge", "Strict"',
      ],
    ],
    [
      'P33-58 seLinuxChangePolicy is MountOption or Recursive',
      'pods',
      pod({ securityContext: { seLinuxChangePolicy: 'Sometimes' } }),
      [
        'spec.securityContext.seLinuxChangePolicy: Unsupported value: "Sometimes": supported values: "MountOption", "Recursive"',
      ],
    ],
    [
      'P33-59 a sleep action lasts at most the grace period',
      'pods',
      pod({ containers: [ctr({ lifecycle: { preStop: { sleep: { seconds: 31 } } } })] }),
      [
        'spec.containers[0].lifecycle.preStop.sleep: Invalid value: 31: must be non-negative and less than terminationGracePeriodSeconds (30)',
      ],
    ],
  ])('%s', async (_rule, plural, body, expected) => {
    const res = await srv.api('POST', `${ns}/${plural}`, body);
    expect(res.status, res.text).toBe(422);
    expect(causes(res)).toEqual(expected);
  });
});

describe('pod defaults since 1.10', () => {
  it('defaults enableServiceLinks to true on a pod, not on a template', async () => {
    const created = await srv.api('POST', `${ns}/pods`, pod());
    expect(created.status, created.text).toBe(201);
    expect(created.body.spec.enableServiceLinks).toBe(true);
    const tpl = await srv.api('POST', `${ns}/podtemplates`, {
      metadata: { name: `t33-${n++}` },
      template: { spec: spec() },
    });
    expect(tpl.status, tpl.text).toBe(201);
    expect(tpl.body.template.spec.enableServiceLinks).toBeUndefined();
  });

  it('accepts SCTP container ports and a CSI volume', async () => {
    const res = await srv.api(
      'POST',
      `${ns}/pods`,
      pod({
        containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 9000, protocol: 'SCTP' }] }],
        volumes: [{ name: 'v', csi: { driver: 'csi.example.com' } }],
      }),
    );
    expect(res.status, res.text).toBe(201);
  });
});

describe('pod fields since 1.10 that are accepted', () => {
  it("accepts a sidecar with lifecycle and probes, grpc and startup probes, and today's pod fields", async () => {
    const res = await srv.api(
      'POST',
      `${ns}/pods`,
      pod({
        initContainers: [
          ctr({
            name: 'sidecar',
            restartPolicy: 'Always',
            lifecycle: { preStop: { exec: cmd } },
            readinessProbe: { exec: cmd },
            startupProbe: { grpc: { port: 9000 }, terminationGracePeriodSeconds: 5 },
          }),
        ],
        containers: [ctr({ livenessProbe: { grpc: { port: 9000, service: 'health' } }, startupProbe: { exec: cmd } })],
        os: { name: 'linux' },
        hostUsers: false,
        setHostnameAsFQDN: true,
        hostname: 'h',
        subdomain: 's',
        preemptionPolicy: 'Never',
        overhead: { cpu: '250m' },
        schedulingGates: [{ name: 'example.com/gate' }],
        readinessGates: [{ conditionType: 'example.com/ready' }],
        securityContext: {
          seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/audit.json' },
          appArmorProfile: { type: 'RuntimeDefault' },
        },
        topologySpreadConstraints: [
          tsc({ minDomains: 2, matchLabelKeys: ['pod-template-hash'], nodeTaintsPolicy: 'Honor' }),
          tsc({ whenUnsatisfiable: 'ScheduleAnyway' }),
        ],
      }),
    );
    expect(res.status, res.text).toBe(201);
  });

  it('accepts a windows pod with windowsOptions', async () => {
    const res = await srv.api(
      'POST',
      `${ns}/pods`,
      pod({ os: { name: 'windows' }, securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } } }),
    );
    expect(res.status, res.text).toBe(201);
  });

  it('applies the rules to pod templates too', async () => {
    const res = await srv.api('POST', `${ns}/podtemplates`, {
      metadata: { name: `t33-${n++}` },
      template: { spec: spec({ topologySpreadConstraints: [tsc({ maxSkew: 0 })] }) },
    });
    expect(res.status, res.text).toBe(422);
    expect(causes(res)).toEqual([
      'template.spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero',
    ]);
  });
});
