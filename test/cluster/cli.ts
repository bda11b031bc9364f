/**
 * `npm run cluster -- --kubeconfig PATH [--scenario FILE] [--http] [--port N] [--speed X]`
 * Starts the stand-in with controllers, writes the kubeconfig, applies the scenario, prints a ready line
 * and runs until SIGINT/SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { startCluster, type TestCluster } from './index.js';

interface CliOptions {
  kubeconfig: string;
  scenario?: string;
  http: boolean;
  port?: number;
  speed: number;
}

const USAGE =
  'usage: npm run cluster -- --kubeconfig PATH [--scenario FILE] [--http] [--port N] [--speed X]\n' +
  'example: npm run cluster -- --kubeconfig /tmp/kubeconfig --scenario demo.yaml';

export function parseArgs(argv: string[]): CliOptions {
  const opts: Partial<CliOptions> = { http: false, speed: 1 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${arg} needs a value\n${USAGE}`);
      return v;
    };
    switch (arg) {
      case '--kubeconfig':
        opts.kubeconfig = value();
        break;
      case '--scenario':
        opts.scenario = value();
        break;
      case '--http':
        opts.http = true;
        break;
      case '--port':
        opts.port = Number(value());
        break;
      case '--speed':
        opts.speed = Number(value());
        break;
      case '--help':
        throw new Error(USAGE);
      default:
        throw new Error(`unknown argument ${arg}\n${USAGE}`);
    }
  }
  if (!opts.kubeconfig) throw new Error(`--kubeconfig is required\n${USAGE}`);
  if (opts.port !== undefined && !(Number.isInteger(opts.port) && opts.port >= 0 && opts.port < 65536))
    throw new Error(`--port must be a port number\n${USAGE}`);
  if (!(opts.speed! > 0)) throw new Error(`--speed must be a positive number (0.5 = twice as fast)\n${USAGE}`);
  return opts as CliOptions;
}

interface Doc {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  items?: Doc[];
}

/** Objects in a multi-document YAML/JSON file, `List` kinds flattened. */
export function scenarioObjects(text: string): Doc[] {
  const out: Doc[] = [];
  const add = (d: Doc | null) => {
    if (!d || typeof d !== 'object') return;
    if (d.kind?.endsWith('List') && Array.isArray(d.items)) d.items.forEach(add);
    else out.push(d);
  };
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length) throw new Error(`scenario: ${doc.errors[0]?.message}`);
    add(doc.toJS() as Doc);
  }
  return out;
}

const ORDER = ['Namespace', 'CustomResourceDefinition'];
const rank = (d: Doc) => (ORDER.includes(d.kind) ? ORDER.indexOf(d.kind) : ORDER.length);

/** Applies the scenario: namespaces and CRDs first; custom resources once their CRD is served. */
export async function applyScenario(cluster: TestCluster, docs: Doc[]): Promise<void> {
  for (const doc of [...docs].sort((a, b) => rank(a) - rank(b))) {
    await cluster
      .waitFor(() => {
        try {
          cluster.list(doc.apiVersion, doc.kind);
          return true;
        } catch {
          return false;
        }
      }, 30_000)
      .catch(() => {
        throw new Error(`scenario: ${doc.apiVersion} ${doc.kind} is not served (is its CRD in the scenario?)`);
      });
    cluster.apply(doc);
  }
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const cluster = await startCluster({ tls: !opts.http, port: opts.port, speed: opts.speed });
  cluster.writeKubeconfig(opts.kubeconfig);
  if (opts.scenario) await applyScenario(cluster, scenarioObjects(readFileSync(opts.scenario, 'utf8')));
  console.log(`kubewait test cluster ready at ${cluster.url} in ${Date.now() - started} ms (kubeconfig: ${opts.kubeconfig})`);
  const stop = async () => {
    await cluster.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

const invokedDirectly = process.argv[1] && /cli\.[tj]s$/.test(process.argv[1]);
if (invokedDirectly) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(2);
  });
}
