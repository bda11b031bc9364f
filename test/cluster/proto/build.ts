/**
 * Builds test/cluster/proto/k8s.json, the schema the stand-in decodes protobuf request bodies with.
 * Run once when the pinned versions change: `npm run cluster:proto`.
 *
 * Sources, from the Go module proxy only (`go mod download`): the `generated.proto` files of
 * k8s.io/api and k8s.io/apimachinery (wire layout: field numbers, types), and their Go types (`json`
 * tags: JSON names, omitempty/omitzero, pointers, inlined structs), since the JSON a real server makes of a
 * decoded object is Go's encoding/json of the Go struct, not proto3's JSON mapping.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

export const K8S_API_VERSION = 'v0.35.2';

/** The packages of the types clients send (and everything they reference). */
const API_PACKAGES = [
  'core/v1',
  'apps/v1',
  'batch/v1',
  'rbac/v1',
  'networking/v1',
  'policy/v1',
  'autoscaling/v1',
  'autoscaling/v2',
  'storage/v1',
  'coordination/v1',
];
const MACHINERY_PACKAGES = ['pkg/apis/meta/v1', 'pkg/api/resource', 'pkg/util/intstr', 'pkg/runtime', 'pkg/runtime/schema'];

export interface FieldSchema {
  /** Proto field name (the `name=` of the Go protobuf tag). */
  name: string;
  id: number;
  /** Scalar proto type (`string`, `int32`, `bytes`, ...) or a message's full name. */
  type: string;
  repeated?: true;
  /** For map fields: the key's scalar type. */
  keyType?: string;
  /** From the Go struct: */
  json?: string;
  omitempty?: true;
  omitzero?: true;
  pointer?: true;
  inline?: true;
}

export interface MessageSchema {
  fields: FieldSchema[];
  /** False for proto messages that wrap a Go named slice (`type Verbs []string` -> `repeated items`). */
  goStruct: boolean;
}

function moduleDir(module: string): string {
  const out = execFileSync('go', ['mod', 'download', '-json', `${module}@${K8S_API_VERSION}`], {
    env: { ...process.env, GOFLAGS: '-mod=mod' },
    encoding: 'utf8',
  });
  return (JSON.parse(out) as { Dir: string }).Dir;
}

interface GoField {
  json: string;
  omitempty: boolean;
  omitzero: boolean;
  pointer: boolean;
  inline: boolean;
}

/** `struct name -> proto field name -> Go facts`, from the package's non-test Go files. */
function goStructs(dir: string): Map<string, Map<string, GoField>> {
  const structs = new Map<string, Map<string, GoField>>();
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.go') || file.endsWith('_test.go') || file.startsWith('zz_') || file.includes('.pb.')) continue;
    const source = readFileSync(join(dir, file), 'utf8');
    for (const m of source.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
      const fields = new Map<string, GoField>();
      for (const line of (m[2] ?? '').split('\n')) {
        const tagged = /^\t([^\s`][^`]*?)\s+`(.*)`\s*$/.exec(line);
        if (!tagged) continue;
        const tags = tagged[2] ?? '';
        const proto = /protobuf:"([^"]*)"/.exec(tags)?.[1];
        const json = /json:"([^"]*)"/.exec(tags)?.[1];
        if (!proto || json === undefined) continue;
        const tokens = (tagged[1] ?? '').trim().split(/\s+/);
        const goType = tokens.length > 1 ? (tokens[1] ?? '') : (tokens[0] ?? '');
        // Without `name=` (EphemeralContainer's embedded EphemeralContainerCommon) go-to-protobuf names the
        // field after the Go field, first letter lowered.
        const goName = tokens.length > 1 ? (tokens[0] ?? '') : (goType.split('.').pop() ?? '');
        const protoName = /(?:^|,)name=([^,]+)/.exec(proto)?.[1] ?? goName.charAt(0).toLowerCase() + goName.slice(1);
        const [jsonName = '', ...options] = json.split(',');
        fields.set(protoName, {
          json: jsonName,
          omitempty: options.includes('omitempty'),
          omitzero: options.includes('omitzero'),
          pointer: goType.startsWith('*'),
          inline: options.includes('inline'),
        });
      }
      structs.set(m[1] ?? '', fields);
    }
  }
  return structs;
}

function build(): void {
  const api = moduleDir('k8s.io/api');
  const machinery = moduleDir('k8s.io/apimachinery');
  const resolveImport = (target: string): string => {
    if (target.startsWith('k8s.io/api/')) return join(api, target.slice('k8s.io/api/'.length));
    if (target.startsWith('k8s.io/apimachinery/')) return join(machinery, target.slice('k8s.io/apimachinery/'.length));
    return target;
  };
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => resolveImport(target);
  const files = [...API_PACKAGES.map((p) => `k8s.io/api/${p}/generated.proto`), ...MACHINERY_PACKAGES.map((p) => `k8s.io/apimachinery/${p}/generated.proto`)];
  root.loadSync(files, { keepCase: true });
  root.resolveAll();

  // Go facts per proto package (a Go package has one generated.proto).
  const goByPackage = new Map<string, Map<string, Map<string, GoField>>>();
  for (const file of files) {
    const dir = dirname(resolveImport(file));
    const pkg = /^package ([\w.]+);/m.exec(readFileSync(join(dir, 'generated.proto'), 'utf8'))?.[1];
    if (pkg) goByPackage.set(pkg, goStructs(dir));
  }

  const messages: Record<string, MessageSchema> = {};
  const visit = (ns: protobuf.NamespaceBase): void => {
    for (const nested of ns.nestedArray) {
      if (nested instanceof protobuf.Type) {
        const fullName = nested.fullName.replace(/^\./, '');
        const pkg = fullName.slice(0, fullName.lastIndexOf('.'));
        const go = goByPackage.get(pkg)?.get(nested.name);
        messages[fullName] = {
          goStruct: go !== undefined,
          fields: nested.fieldsArray
            .slice()
            .sort((a, b) => a.id - b.id)
            .map((f) => {
              const facts = go?.get(f.name);
              const type = f.resolvedType ? f.resolvedType.fullName.replace(/^\./, '') : f.type;
              return {
                name: f.name,
                id: f.id,
                type,
                ...(f.repeated ? { repeated: true as const } : {}),
                ...(f instanceof protobuf.MapField ? { keyType: f.keyType } : {}),
                ...(facts ? { json: facts.json } : {}),
                ...(facts?.omitempty ? { omitempty: true as const } : {}),
                ...(facts?.omitzero ? { omitzero: true as const } : {}),
                ...(facts?.pointer ? { pointer: true as const } : {}),
                ...(facts?.inline ? { inline: true as const } : {}),
              };
            }),
        };
      }
      if (nested instanceof protobuf.Namespace || nested instanceof protobuf.Type) visit(nested);
    }
  };
  visit(root);

  const names = Object.keys(messages).sort();
  const lines = names.map((n, i) => `    ${JSON.stringify(n)}: ${JSON.stringify(messages[n])}${i < names.length - 1 ? ',' : ''}`);
  const out = join(dirname(fileURLToPath(import.meta.url)), 'k8s.json');
  writeFileSync(
    out,
    `{\n  "source": ${JSON.stringify(`k8s.io/api@${K8S_API_VERSION} k8s.io/apimachinery@${K8S_API_VERSION} (generated.proto + Go json tags), by test/cluster/proto/build.ts`)},\n  "messages": {\n${lines.join('\n')}\n  }\n}\n`,
  );
  console.log(`${out}: ${names.length} messages`);
}

build();
