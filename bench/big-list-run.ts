/**
 * The big-list case of `npm run bench` on its own (`npm run bench:big-list`, after `npm run
 * build`): etcd in a container, one server from the build (BENCH_DIST for another),
 * BENCH_PARSED_LIST (5,000) ConfigMaps of 1 KiB, then BENCH_REPS (5) repetitions of
 * BENCH_PARSED_TIMES (10) rounds of reads (see big-list.ts). BENCH_AB=<dist directory>[,...]
 * runs a server of each of those builds too (a "before") on the same etcd, read in the same
 * rounds, so that every build meets the same machine. Prints each repetition to stderr and a Markdown table
 * of the medians. Stops all it starts.
 */
import { startEtcd } from '../test/helpers/etcd.js';
import { jsonClient } from './http2-client.js';
import { compareParsedList, listClient, printParsedList, seedKibList, type ParsedListResult } from './big-list.js';
import { rawEtcd } from './raw-etcd.js';
import { BUILD, startBenchServer, type BenchServer } from './server.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const COUNT = num('BENCH_PARSED_LIST', 5000);
const REPS = num('BENCH_REPS', 5);
const TIMES = num('BENCH_PARSED_TIMES', 10);
const AB = process.env.BENCH_AB ? process.env.BENCH_AB.split(',') : [];
const NS = 'bench-parsed';

async function main(): Promise<void> {
  const etcd = await startEtcd();
  const servers: BenchServer[] = [];
  const kv = rawEtcd(etcd.endpoint);
  const results: ParsedListResult[] = [];
  const names = AB.length
    ? ['ck-apiserver', ...AB.map((b) => `ck-apiserver (${b})`)]
    : ['ck-apiserver, resourceVersion=0'];
  try {
    for (const build of [BUILD, ...AB])
      servers.push(await startBenchServer([etcd.endpoint], ['--max-requests-inflight=20000'], build));
    const target = (s: BenchServer) => ({ url: s.url, caPem: s.caPem, token: s.token });
    const api = jsonClient(target(servers[0]), 32);
    await api.call('POST', '/api/v1/namespaces', { metadata: { name: NS } });
    await seedKibList(api, NS, COUNT);
    await api.close();
    const subjects = servers.map((s) => ({ client: listClient(target(s)), pid: s.child.pid! }));
    try {
      for (let rep = 0; rep < REPS; rep++) {
        const r = await compareParsedList(subjects, kv, NS, COUNT, TIMES);
        results.push(r);
        const sides = r.api.map(
          (a, s) =>
            `${names[s]} ${a.ms.toFixed(1)} ms (first byte ${a.firstByteMs.toFixed(1)}, last ${a.lastByteMs.toFixed(1)}, decode ${a.decodeMs.toFixed(1)}, ${a.decodeFaults} faults, server CPU ${r.serverCpuMs[s].toFixed(1)} ms, ${r.serverFaults[s].toFixed(0)} faults)`,
        );
        console.error(
          `rep ${rep + 1}: ${sides.join('; ')}; raw ${r.raw.ms.toFixed(1)} ms (range ${r.raw.firstByteMs.toFixed(1)}, decode ${r.raw.decodeMs.toFixed(1)}, ${r.raw.decodeFaults} faults)`,
        );
      }
    } finally {
      await Promise.all(subjects.map((s) => s.client.close()));
    }
  } finally {
    kv.close();
    await Promise.all(servers.map((s) => s.stop()));
    await etcd.stop();
  }
  console.log(
    `ck-apiserver big list (${process.version}, build ${BUILD}${AB.length ? ` against ${AB.join(', ')}` : ''}; ${REPS} repetitions of ${TIMES} rounds, medians; the client's HTTP/2 windows: ${process.env.BENCH_H2_WINDOW === 'go' ? "Go's (client-go's) 4 MiB / 1 GiB" : "Node's 64 KiB"}; the etcd client's: ${process.env.BENCH_ETCD_WINDOW === 'go' ? '4 MiB' : "grpc-js's 64 KiB"}; gzip ${process.env.BENCH_GZIP === '1' ? 'asked' : 'not asked'})`,
  );
  printParsedList(COUNT, names, results);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
