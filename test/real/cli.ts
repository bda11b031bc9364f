/**
 * `npm run cluster:real -- --kubeconfig PATH [--nodes N] [--user admin|token]`: a real control plane on
 * loopback (see cluster.ts) until SIGINT or SIGTERM. PATH is written once the API is ready and the nodes
 * are Ready; every process is stopped and the temp dir removed on the signal.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startRealCluster } from './cluster.js';

const USAGE =
  'usage: npm run cluster:real -- --kubeconfig PATH [--nodes N] [--user admin|token]\n  e.g. npm run cluster:real -- --kubeconfig /tmp/real.kubeconfig';

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function options() {
  let values;
  try {
    ({ values } = parseArgs({ options: { kubeconfig: { type: 'string' }, nodes: { type: 'string' }, user: { type: 'string' } }, strict: true }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (!values.kubeconfig) fail('--kubeconfig PATH is required: where to write the kubeconfig of the cluster');
  const nodes = values.nodes === undefined ? 3 : Number(values.nodes);
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > 100) fail(`--nodes must be a whole number from 1 to 100, e.g. --nodes 3 (got "${values.nodes}")`);
  const user = values.user ?? 'admin';
  if (user !== 'admin' && user !== 'token') fail(`--user must be admin (client certificate) or token (bearer token), e.g. --user token (got "${user}")`);
  return { kubeconfig: values.kubeconfig, nodes, user };
}

async function main(): Promise<void> {
  const opts = options();
  const started = Date.now();
  const cluster = await startRealCluster({ nodes: opts.nodes, log: (line) => process.stderr.write(`real cluster: ${line}\n`) });
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`real cluster: ${signal}, stopping\n`);
    cluster.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`real cluster: stopping failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  writeFileSync(opts.kubeconfig, cluster.kubeconfig({ user: opts.user }), { mode: 0o600 });
  process.stdout.write(
    `real cluster ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${cluster.url}, nodes ${cluster.nodeNames.join(', ')}\n` +
      `kubeconfig (${opts.user}): ${opts.kubeconfig}\nCtrl-C stops it.\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`real cluster: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
