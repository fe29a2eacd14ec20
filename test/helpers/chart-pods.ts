/**
 * Containers made from the chart's rendered pods: the rendered image, command or arguments,
 * environment, user, read-only root file system, dropped capabilities, Secret volumes as
 * read-only bind mounts of their files and emptyDirs as tmpfs. For the e2e tests that run the
 * chart's pods without a cluster.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GenericContainer } from 'testcontainers';
import { find, type Rendered } from '../chart/render.js';

/** GenericContainer with the one setting it has no method for: a read-only root file system. */
class PodContainer extends GenericContainer {
  withReadOnlyRootFilesystem(): this {
    this.hostConfig.ReadonlyRootfs = true;
    return this;
  }
}

/**
 * A container for the first container of the pod template `podSpec`, not yet started. Secret
 * files are written under `filesDir`; `$(POD_NAME)` in the command is replaced by `podName`,
 * `$(POD_IP)` by 127.0.0.1.
 */
export function containerOfPod(
  objects: readonly Rendered[],
  podSpec: any,
  filesDir: string,
  podName: string,
): GenericContainer {
  const c = podSpec.containers[0];
  const mounts: { source: string; target: string; mode: 'ro' }[] = [];
  const tmpfs: Record<string, string> = {};
  for (const m of c.volumeMounts ?? []) {
    const volume = podSpec.volumes?.find((v: any) => v.name === m.name);
    if (!volume || volume.emptyDir) {
      tmpfs[m.mountPath] = 'rw,mode=1777'; // an emptyDir, or a PVC of a StatefulSet's template
      continue;
    }
    const secret = find(objects, 'Secret', volume.secret.secretName);
    for (const item of volume.secret.items) {
      const source = join(filesDir, podName, m.name, item.path);
      mkdirSync(dirname(source), { recursive: true });
      writeFileSync(source, Buffer.from(secret.data[item.key], 'base64'), { mode: 0o644 });
      mounts.push({ source, target: join(m.mountPath, item.path), mode: 'ro' });
    }
  }
  // No pod network here: a replica advertises loopback as its pod IP.
  const expand = (s: string) => s.replaceAll('$(POD_NAME)', podName).replaceAll('$(POD_IP)', '127.0.0.1');
  const container = new PodContainer(c.image)
    .withUser(`${podSpec.securityContext.runAsUser}:${podSpec.securityContext.runAsGroup}`)
    .withDroppedCapabilities('ALL')
    .withSecurityOpt('no-new-privileges')
    .withEnvironment(
      Object.fromEntries((c.env ?? []).filter((e: any) => e.value !== undefined).map((e: any) => [e.name, e.value])),
    )
    .withBindMounts(mounts)
    .withTmpFs(tmpfs);
  if (c.securityContext?.readOnlyRootFilesystem) container.withReadOnlyRootFilesystem();
  if (c.command) container.withEntrypoint([c.command[0]]).withCommand(c.command.slice(1).map(expand));
  else container.withCommand((c.args ?? []).map(expand));
  return container;
}
