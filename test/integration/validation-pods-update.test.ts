/**
 * One case per rule of docs/validation/pods-update.md: what a pod update, a pods/status write
 * and a pods/ephemeralcontainers write may change (upstream 1.33 ValidatePodUpdate,
 * ValidatePodStatusUpdate, ValidatePodEphemeralContainersUpdate, validateEphemeralContainers),
 * through HTTP. Cases 30–39 (pods/ephemeralcontainers, kubectl debug) are in
 * validation-pods-ephemeral.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const pods = '/api/v1/namespaces/default/pods';
const MERGE = { 'content-type': 'application/merge-patch+json' };
const SMP = { 'content-type': 'application/strategic-merge-patch+json' };
const C = { name: 'c', image: 'nginx' };
type Res = { status: number; body: any; text: string };

async function createPod(name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) {
  const res = await srv.api('POST', pods, { metadata: { name, ...metadata }, spec: { containers: [C], ...spec } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
const patch = (name: string, body: unknown, sub = '', headers = MERGE) =>
  srv.api('PATCH', `${pods}/${name}${sub ? `/${sub}` : ''}`, body, headers);
const status = (name: string, s: Record<string, unknown>) => patch(name, { status: s }, 'status');

/** A 422 with a cause at `field` whose message starts with `message`. */
function invalid(res: Res, field: string, message: string) {
  expect(res.status, res.text).toBe(422);
  const causes = res.body.details.causes.map((c: any) => `${c.field}: ${c.message}`);
  expect(
    causes.some((c: string) => c.startsWith(`${field}: ${message}`)),
    causes.join('\n'),
  ).toBe(true);
}
const ok = (res: Res) => expect(res.status, res.text).toBe(200);

describe('pod updates (ValidatePodUpdate)', () => {
  it('1. containers may not be added or removed', async () => {
    await createPod('u1');
    invalid(
      await patch('u1', { spec: { containers: [C, { name: 'd', image: 'x' }] } }),
      'spec.containers',
      'Forbidden: pod updates may not add or remove containers',
    );
  });
  it('2. init containers may not be added or removed', async () => {
    await createPod('u2');
    invalid(
      await patch('u2', { spec: { initContainers: [{ name: 'i', image: 'x' }] } }),
      'spec.initContainers',
      'Forbidden: pod updates may not add or remove containers',
    );
  });
  it('3. an updated image is required', async () => {
    await createPod('u3');
    invalid(
      await patch('u3', { spec: { containers: [{ ...C, image: '' }] } }, '', SMP),
      'spec.containers[0].image',
      'Required value',
    );
  });
  it('4. an updated image has no leading or trailing whitespace', async () => {
    await createPod('u4', { initContainers: [{ name: 'i', image: 'x' }] });
    invalid(
      await patch('u4', { spec: { initContainers: [{ name: 'i', image: ' y' }] } }, '', SMP),
      'spec.initContainers[0].image',
      'Invalid value: " y": must not have leading or trailing whitespace',
    );
  });
  it('5. activeDeadlineSeconds may be set and lowered, not raised', async () => {
    await createPod('u5');
    ok(await patch('u5', { spec: { activeDeadlineSeconds: 100 } }));
    ok(await patch('u5', { spec: { activeDeadlineSeconds: 50 } }));
    invalid(
      await patch('u5', { spec: { activeDeadlineSeconds: 60 } }),
      'spec.activeDeadlineSeconds',
      'Invalid value: 60: must be less than or equal to previous value',
    );
  });
  it('6. activeDeadlineSeconds may not be removed once set', async () => {
    await createPod('u6', { activeDeadlineSeconds: 10 });
    invalid(
      await patch('u6', { spec: { activeDeadlineSeconds: null } }),
      'spec.activeDeadlineSeconds',
      'Invalid value: "null": must not update from a positive integer to nil value',
    );
  });
  it('7. activeDeadlineSeconds is between 0 and 2147483647 on update', async () => {
    await createPod('u7');
    invalid(
      await patch('u7', { spec: { activeDeadlineSeconds: -1 } }),
      'spec.activeDeadlineSeconds',
      'Invalid value: -1: must be between 0 and 2147483647, inclusive',
    );
  });
  it('8. tolerations may be added; existing ones change only their tolerationSeconds', async () => {
    const t = { key: 'k', operator: 'Equal', value: 'v', effect: 'NoExecute', tolerationSeconds: 5 };
    await createPod('u8', { tolerations: [t] });
    ok(
      await patch('u8', {
        spec: {
          tolerations: [
            { ...t, tolerationSeconds: 9 },
            { key: 'a', operator: 'Exists' },
          ],
        },
      }),
    );
    invalid(
      await patch('u8', { spec: { tolerations: [{ ...t, value: 'w' }] } }),
      'spec.tolerations',
      'Forbidden: existing toleration can not be modified except its tolerationSeconds',
    );
  });
  it('9. scheduling gates may be removed, not added', async () => {
    await createPod('u9', { schedulingGates: [{ name: 'a' }, { name: 'b' }] });
    invalid(
      await patch('u9', { spec: { schedulingGates: [{ name: 'a' }, { name: 'c' }] } }),
      'spec.schedulingGates[1].name',
      "Forbidden: only deletion is allowed, but found new scheduling gate 'c'",
    );
    ok(await patch('u9', { spec: { schedulingGates: [{ name: 'b' }] } }));
    ok(await patch('u9', { spec: { schedulingGates: null } }));
  });
  it('10. terminationGracePeriodSeconds may go from negative to 1, nothing else', async () => {
    await createPod('u10', { terminationGracePeriodSeconds: -5 });
    invalid(
      await patch('u10', { spec: { terminationGracePeriodSeconds: 2 } }),
      'spec',
      'Forbidden: pod updates may not change fields other than',
    );
    ok(await patch('u10', { spec: { terminationGracePeriodSeconds: 1 } }));
  });
  it('11. while gated, nodeSelector may gain entries, not change or lose them', async () => {
    await createPod('u11', { schedulingGates: [{ name: 'g' }], nodeSelector: { a: '1' } });
    ok(await patch('u11', { spec: { nodeSelector: { b: '2' } } }));
    invalid(
      await patch('u11', { spec: { nodeSelector: { a: '3' } } }),
      'spec.nodeSelector',
      'Invalid value: map[string]string{"a":"3", "b":"2"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)',
    );
  });
  it('12. while gated, a non-empty list of required node selector terms keeps its length', async () => {
    const term = { matchExpressions: [{ key: 'k', operator: 'In', values: ['v'] }] };
    const affinity = (terms: unknown[]) => ({
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
    });
    await createPod('u12', { schedulingGates: [{ name: 'g' }], affinity: affinity([term]) });
    invalid(
      await patch('u12', { spec: { affinity: affinity([term, term]) } }),
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms',
      'Invalid value: []core.NodeSelectorTerm',
    );
  });
  it('13. while gated, required node selector terms only gain expressions', async () => {
    const expr = (key: string) => ({ key, operator: 'Exists' });
    const affinity = (exprs: unknown[]) => ({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: exprs }] },
      },
    });
    await createPod('u13', { schedulingGates: [{ name: 'g' }] });
    ok(await patch('u13', { spec: { affinity: affinity([expr('a')]) } }));
    ok(await patch('u13', { spec: { affinity: affinity([expr('a'), expr('b')]) } }));
    invalid(
      await patch('u13', { spec: { affinity: affinity([expr('c'), expr('b')]) } }),
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]',
      'Invalid value: core.NodeSelectorTerm',
    );
  });
  it('14. any other change is forbidden with upstream’s message and a diff (nodeSelector of an ungated pod, ephemeral containers)', async () => {
    await createPod('u14');
    const res = await patch('u14', { spec: { nodeSelector: { a: '1' } } });
    invalid(
      res,
      'spec',
      'Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n  core.PodSpec{\n',
    );
    expect(res.body.message).toContain('+ \tNodeSelector: {"a":"1"},');
    invalid(
      await patch('u14', { spec: { ephemeralContainers: [{ name: 'e', image: 'x' }] } }, '', SMP),
      'spec',
      'Forbidden: pod updates may not change fields other than',
    );
  });
  it('15. the mirror-pod and AppArmor annotations may not be added, changed or removed', async () => {
    await createPod('u15', { nodeName: 'n1' }, { annotations: { 'kubernetes.io/config.mirror': 'x' } });
    invalid(
      await patch('u15', { metadata: { annotations: { 'kubernetes.io/config.mirror': null } } }),
      'metadata.annotations[kubernetes.io/config.mirror]',
      'Forbidden: may not remove or update mirror pod annotation',
    );
    invalid(
      await patch('u15', {
        metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'runtime/default' } },
      }),
      'metadata.annotations[container.apparmor.security.beta.kubernetes.io/c]',
      'Forbidden: may not add AppArmor annotations',
    );
  });
});

describe('pod status updates (ValidatePodStatusUpdate)', () => {
  it('16. custom condition types are qualified names (upstream names them metadata.conditions[i].Type)', async () => {
    await createPod('s16');
    ok(
      await status('s16', {
        conditions: [
          { type: 'example.com/ok', status: 'True' },
          { type: 'Ready', status: 'False' },
        ],
      }),
    );
    invalid(
      await status('s16', { conditions: [{ type: 'bad type', status: 'True' }] }),
      'metadata.conditions[0].Type',
      'Invalid value: "bad type": name part must consist of',
    );
  });
  it('17. the spec (spec.nodeName) of a status write is ignored, so status.nodeName never changes there', async () => {
    const pod = await createPod('s17');
    const res = await srv.api('PUT', `${pods}/s17/status`, { ...pod, spec: { ...pod.spec, nodeName: 'n2' } });
    ok(res);
    expect(res.body.spec.nodeName).toBeUndefined();
  });
  it('18. nominatedNodeName is a DNS subdomain', async () => {
    await createPod('s18');
    invalid(
      await status('s18', { nominatedNodeName: 'Bad_Node' }),
      'status.nominatedNodeName',
      'Invalid value: "Bad_Node": a lowercase RFC 1123 subdomain must consist of',
    );
  });
  it('19. qosClass is immutable (an empty one is backfilled)', async () => {
    await createPod('s19');
    invalid(
      await status('s19', { qosClass: 'Guaranteed' }),
      'status.qosClass',
      'Invalid value: "Guaranteed": field is immutable',
    );
    const res = await srv.api('PUT', `${pods}/s19/status`, {
      ...(await srv.api('GET', `${pods}/s19`)).body,
      status: { phase: 'Pending' },
    });
    ok(res);
    expect(res.body.status.qosClass).toBe('BestEffort');
  });
  const terminated = (name: string, exitCode = 0) => ({
    name,
    image: 'x',
    imageID: '',
    ready: false,
    restartCount: 0,
    state: { terminated: { exitCode } },
  });
  const running = (name: string) => ({
    name,
    image: 'x',
    imageID: '',
    ready: true,
    restartCount: 0,
    state: { running: {} },
  });
  it('20. a terminated container stays terminated unless restartPolicy restarts it', async () => {
    await createPod('s20', { restartPolicy: 'OnFailure' });
    ok(await status('s20', { containerStatuses: [terminated('c', 1)] }));
    ok(await status('s20', { containerStatuses: [running('c')] }));
    ok(await status('s20', { containerStatuses: [terminated('c', 0)] }));
    invalid(
      await status('s20', { containerStatuses: [running('c')] }),
      'status.containerStatuses[0].state',
      'Forbidden: may not be transitioned to non-terminated state',
    );
  });
  it('21. a terminated init container stays terminated, except a sidecar (restartPolicy Always)', async () => {
    await createPod('s21', {
      restartPolicy: 'Never',
      initContainers: [
        { name: 'i', image: 'x' },
        { name: 's', image: 'x', restartPolicy: 'Always' },
      ],
    });
    ok(await status('s21', { initContainerStatuses: [terminated('i'), terminated('s')] }));
    ok(await status('s21', { initContainerStatuses: [terminated('i'), running('s')] }));
    invalid(
      await status('s21', { initContainerStatuses: [running('i'), running('s')] }),
      'status.initContainerStatuses[0].state',
      'Forbidden: may not be transitioned to non-terminated state',
    );
  });
  it('22. a terminated ephemeral container stays terminated whatever the restart policy', async () => {
    await createPod('s22');
    ok(await status('s22', { ephemeralContainerStatuses: [terminated('e')] }));
    invalid(
      await status('s22', { ephemeralContainerStatuses: [running('e')] }),
      'status.ephemeralContainerStatuses[0].state',
      'Forbidden: may not be transitioned to non-terminated state',
    );
  });
  it('23. resourceClaimStatuses name a claim of the spec, once, with a valid claim name', async () => {
    await createPod('s23', { resourceClaims: [{ name: 'gpu', resourceClaimName: 'claim' }] });
    ok(await status('s23', { resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'claim-x' }] }));
    invalid(
      await status('s23', { resourceClaimStatuses: [{ name: 'tpu' }] }),
      'status.resourceClaimStatuses[0].name',
      'Invalid value: "tpu": must match the name of an entry in `spec.resourceClaims`',
    );
    invalid(
      await status('s23', { resourceClaimStatuses: [{ name: 'gpu' }, { name: 'gpu' }] }),
      'status.resourceClaimStatuses[1].name',
      'Duplicate value: "gpu"',
    );
    invalid(
      await status('s23', { resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'Bad_' }] }),
      'status.resourceClaimStatuses[0].name',
      'Invalid value: "Bad_"',
    );
  });
  it('24. podIPs are IP addresses', async () => {
    await createPod('s24');
    invalid(
      await status('s24', { podIPs: [{ ip: '10.0.0.300' }] }),
      'status.podIPs[0]',
      'Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    );
  });
  it('25. more than one pod IP is a dual-stack pair', async () => {
    await createPod('s25');
    ok(await status('s25', { podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }] }));
    invalid(
      await status('s25', { podIPs: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }] }),
      'status.podIPs',
      'Invalid value: []core.PodIP{core.PodIP{IP:"10.0.0.1"}, core.PodIP{IP:"10.0.0.2"}}: may specify no more than one IP for each IP family',
    );
  });
  it('26. hostIPs[0] is hostIP', async () => {
    await createPod('s26');
    ok(await status('s26', { hostIP: '10.1.0.1', hostIPs: [{ ip: '10.1.0.1' }] }));
    invalid(
      await status('s26', { hostIP: '10.1.0.1', hostIPs: [{ ip: '10.1.0.2' }] }),
      'status.hostIPs[0].ip',
      'Invalid value: "10.1.0.2": must be equal to `hostIP`',
    );
  });
  it('27. hostIPs are IP addresses, more than one only as a dual-stack pair', async () => {
    await createPod('s27');
    invalid(
      await status('s27', { hostIP: 'x', hostIPs: [{ ip: 'x' }] }),
      'status.hostIPs[0]',
      'Invalid value: "x": must be a valid IP address',
    );
    invalid(
      await status('s27', { hostIP: 'fd00::1', hostIPs: [{ ip: 'fd00::1' }, { ip: 'fd00::2' }] }),
      'status.hostIPs',
      'Invalid value: []core.HostIP{',
    );
  });
  it('28. a container status user’s Linux ids are in range (upstream’s path omits `user`)', async () => {
    await createPod('s28');
    invalid(
      await status('s28', { containerStatuses: [{ ...running('c'), user: { linux: { uid: -1, gid: 0 } } }] }),
      'status.containerStatuses[0].linux.uid',
      'Invalid value: -1: must be between 0 and 2147483647, inclusive',
    );
  });
  it('29. a Windows pod’s container status has no Linux user', async () => {
    await createPod('s29', { os: { name: 'windows' } });
    invalid(
      await status('s29', { containerStatuses: [{ ...running('c'), user: { linux: { uid: 1, gid: 1 } } }] }),
      'status.containerStatuses[0].linux',
      'Forbidden: cannot be set for a windows pod',
    );
  });
});
