// The floor of a Node waiter (issue 35): one LIST and one WATCH per namespace over node:https, nothing
// else. Waits until every Deployment labelled app.kubernetes.io/part-of=bench in KUBEWAIT_MIN_NAMESPACES
// (comma-separated) is Available, prints `ready NS/NAME` for each as it becomes so, and exits at once.
// Server, CA and token from KUBEWAIT_MIN_SERVER, KUBEWAIT_MIN_CA (PEM) and KUBEWAIT_MIN_TOKEN.
// Plain JS and builtins only: what any Node waiter costs at least.
import https from 'node:https';

const server = new URL(process.env.KUBEWAIT_MIN_SERVER);
const agent = new https.Agent({ ca: process.env.KUBEWAIT_MIN_CA, keepAlive: true });
const headers = { authorization: `Bearer ${process.env.KUBEWAIT_MIN_TOKEN}`, accept: 'application/json' };
const selector = encodeURIComponent('app.kubernetes.io/part-of=bench');
const pending = new Set();
const available = (d) => (d.status?.conditions ?? []).some((c) => c.type === 'Available' && c.status === 'True');

function request(path, onResponse) {
  https.get({ hostname: server.hostname, port: server.port, path, agent, headers }, onResponse).on('error', (e) => {
    console.error(e.message);
    process.exit(1);
  });
}

function judge(d) {
  const key = `${d.metadata.namespace}/${d.metadata.name}`;
  if (!pending.has(key) || !available(d)) return;
  pending.delete(key);
  process.stdout.write(`ready ${key}\n`);
  if (pending.size === 0) process.exit(0);
}

function watch(namespace, resourceVersion) {
  request(`/apis/apps/v1/namespaces/${namespace}/deployments?watch=1&labelSelector=${selector}&resourceVersion=${resourceVersion}`, (res) => {
    let buffer = '';
    res.setEncoding('utf8').on('data', (chunk) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        if (line) judge(JSON.parse(line).object);
      }
    });
  });
}

for (const namespace of process.env.KUBEWAIT_MIN_NAMESPACES.split(',')) {
  request(`/apis/apps/v1/namespaces/${namespace}/deployments?labelSelector=${selector}`, (res) => {
    let body = '';
    res.setEncoding('utf8').on('data', (chunk) => (body += chunk));
    res.on('end', () => {
      const list = JSON.parse(body);
      for (const d of list.items) pending.add(`${namespace}/${d.metadata.name}`);
      for (const d of list.items) judge({ ...d, metadata: { ...d.metadata, namespace } });
      watch(namespace, list.metadata.resourceVersion);
    });
  });
}
