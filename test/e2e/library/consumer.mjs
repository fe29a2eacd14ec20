// A user's test suite in a scratch project that installed the packed ck-apiserver tarball: it
// starts the server in-process and, when CK_IMAGE names the project's image, as a container,
// and syncs a client-node informer against each. Prints one JSON line of results.
import * as k8s from '@kubernetes/client-node';
import { startServer } from 'ck-apiserver';
import { CkApiServerContainer } from 'ck-apiserver/testcontainers';

/** Create a ConfigMap, start an informer, create another: the informer must see both ADDED. */
async function informerSees(kubeconfig) {
  const kc = new k8s.KubeConfig();
  kc.loadFromString(kubeconfig);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  await core.createNamespacedConfigMap({
    namespace: 'default',
    body: { metadata: { name: 'before' }, data: { n: '1' } },
  });
  const seen = new Set();
  const informer = k8s.makeInformer(kc, '/api/v1/namespaces/default/configmaps', () =>
    core.listNamespacedConfigMap({ namespace: 'default' }),
  );
  informer.on('add', (obj) => seen.add(obj.metadata.name));
  await informer.start();
  await core.createNamespacedConfigMap({
    namespace: 'default',
    body: { metadata: { name: 'after' }, data: { n: '2' } },
  });
  const deadline = Date.now() + 10_000;
  while (!(seen.has('before') && seen.has('after')) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  await informer.stop();
  return [...seen].sort();
}

const results = {};
const started = performance.now();
const server = await startServer();

const kc = new k8s.KubeConfig();
kc.loadFromString(server.kubeconfig);
await kc.makeApiClient(k8s.CoreV1Api).listNamespace();
results.inProcessFirst200Ms = Math.round(performance.now() - started);
results.inProcess = await informerSees(server.kubeconfig);
await server.stop();

if (process.env.CK_IMAGE) {
  const t0 = performance.now();
  const container = await new CkApiServerContainer(process.env.CK_IMAGE).withToken('consumer-token').start();
  results.containerStartMs = Math.round(performance.now() - t0);
  results.containerToken = container.getToken();
  results.container = await informerSees(container.getKubeconfig());
  await container.stop();
}
process.stdout.write(JSON.stringify(results) + '\n');
