/**
 * `npm run cluster:real -- --kubeconfig PATH [--nodes N] [--user admin|token] [--flux]`: a real control plane
 * on loopback (see cluster.ts), with `--flux` the real Flux controllers too (flux.ts), until SIGINT or SIGTERM,
 * or until a process it runs under ends. PATH is written once the API is ready and the nodes are Ready; every
 * process is stopped and the temp dirs removed.
 *
 * A SIGTERM to `npm run`'s npm stops npm alone: npm's shell and tsx do not pass it on, and this process would
 * keep the control plane running. So the processes this one runs under (npm, its shell, tsx) are watched: the
 * end of any of them stops everything as a signal does.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startRealCluster } from './cluster.js';
import { startFlux, type RealFlux } from './flux.js';

const USAGE =
  'usage: npm run cluster:real -- --kubeconfig PATH [--nodes N] [--user admin|token] [--flux]\n  e.g. npm run cluster:real -- --kubeconfig /tmp/real.kubeconfig';

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function options() {
  let values;
  try {
    ({ values } = parseArgs({
      options: { kubeconfig: { type: 'string' }, nodes: { type: 'string' }, user: { type: 'string' }, flux: { type: 'boolean' } },
      strict: true,
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (!values.kubeconfig) fail('--kubeconfig PATH is required: where to write the kubeconfig of the cluster');
  const nodes = values.nodes === undefined ? 3 : Number(values.nodes);
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > 100) fail(`--nodes must be a whole number from 1 to 100, e.g. --nodes 3 (got "${values.nodes}")`);
  const user = values.user ?? 'admin';
  if (user !== 'admin' && user !== 'token') fail(`--user must be admin (client certificate) or token (bearer token), e.g. --user token (got "${user}")`);
  return { kubeconfig: values.kubeconfig, nodes, user, flux: values.flux === true };
}

async function main(): Promise<void> {
  const opts = options();
  const started = Date.now();
  const log = (line: string) => process.stderr.write(`real cluster: ${line}\n`);
  const cluster = await startRealCluster({ nodes: opts.nodes, log });
  let flux: RealFlux | undefined;
  try {
    flux = opts.flux ? await startFlux(cluster, log) : undefined;
  } catch (error) {
    await cluster.close();
    throw error;
  }
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`real cluster: ${why}, stopping\n`);
    (flux?.close() ?? Promise.resolve())
      .then(() => cluster.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          process.stderr.write(`real cluster: stopping failed: ${String(err)}\n`);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const above = ancestors();
  setInterval(() => {
    const gone = above.find((pid) => !alive(pid));
    if (gone !== undefined) stop(`process ${gone} it ran under has ended`);
  }, 500);
  writeFileSync(opts.kubeconfig, cluster.kubeconfig({ user: opts.user }), { mode: 0o600 });
  process.stdout.write(
    `real cluster ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${cluster.url}, nodes ${cluster.nodeNames.join(', ')}\n` +
      `kubeconfig (${opts.user}): ${opts.kubeconfig}\nCtrl-C stops it.\n`,
  );
}

/** The pids this process runs under, up to (not including) init, read from /proc (Linux; elsewhere none). */
function ancestors(): number[] {
  const pids: number[] = [];
  for (let pid = process.ppid; pid > 1 && pids.length < 8;) {
    pids.push(pid);
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]); // the field after the state: ppid
    } catch {
      break;
    }
  }
  return pids;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`real cluster: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
