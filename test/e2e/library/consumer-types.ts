// Compiled with `tsc --noEmit` in the scratch project: the package's types describe both entry points.
import { startServer, type StartedServer } from 'ck-apiserver';
import { CkApiServerContainer, type StartedCkApiServerContainer } from 'ck-apiserver/testcontainers';

export async function both(): Promise<[string, string]> {
  const server: StartedServer = await startServer({ storage: 'memory', token: 't', logLevel: 'silent' });
  const container: StartedCkApiServerContainer = await new CkApiServerContainer('ck-apiserver:test')
    .withToken('t')
    .start();
  const urls: [string, string] = [server.url, container.getUrl()];
  await Promise.all([server.stop(), container.stop()]);
  return urls;
}
