/**
 * The `manifests` input: paths or globs of YAML/JSON files -> one target per Kubernetes object in them,
 * each with the file and line it came from (so annotations land on the PR diff). Multi-document YAML,
 * JSON and `List` kinds are read; empty documents are skipped; anything else that is not a Kubernetes
 * object is an input error naming the file and line. Namespaces stay undefined when a manifest sets
 * none: the engine applies the `namespace` input (or the context's) and knows which kinds are cluster-scoped.
 */
import { Composer, LineCounter, Parser, isMap, isSeq, type Node } from 'yaml';
import { definedType } from '../kube/crd-names.js';
import { documentName, InputError, type ManifestDocument } from '../settings.js';
import { namespaceNameProblem, objectNameProblem } from './refs.js';
import { MAX_TARGETS, type TargetSpec } from './types.js';
import { workspaceFiles, type WorkspaceFiles } from '../workspace-files.js';

const MANIFEST_EXTENSIONS = ['.yaml', '.yml', '.json'];
const OBJECT_EXAMPLE = 'Each document needs apiVersion, kind and metadata.name, like "apiVersion: apps/v1", "kind: Deployment", "metadata: {name: web}".';

/** Expands `patterns` (relative to `cwd`) and reads every object of every matched file. Nothing found
 *  (only empty documents, every file excluded) is an input error: waiting for nothing is never green. */
export async function targetsFromManifests(patterns: string[], cwd: string, signal?: AbortSignal): Promise<TargetSpec[]> {
  if (patterns.length === 0) return [];
  const workspace = workspaceFiles(cwd, { signal });
  const files = await manifestFiles(patterns, workspace);
  const targets: TargetSpec[] = [];
  for (const file of files) {
    const displayName = workspace.name(file);
    const text = await readManifest(workspace, file, displayName);
    refuseOversizedDocument(text, displayName);
    for (const target of targetsFromManifestText(text, { kind: 'file', file: displayName })) {
      targets.push(target);
      if (targets.length > MAX_TARGETS) throw tooManyTargets(`the manifests hold more than ${MAX_TARGETS} objects`);
    }
  }
  if (targets.length === 0) {
    const where =
      files.length === 0
        ? 'every matched file is excluded'
        : `${files.length === 1 ? `"${workspace.name(files[0]!)}" holds` : `the ${files.length} matched files hold`} no Kubernetes object (only empty documents)`;
    throw new InputError(
      'manifests',
      `Input "manifests" yields nothing to wait for: ${where}. Expected files with at least one object, like k8s/*.yaml holding a Deployment.`,
    );
  }
  return targets;
}

export function tooManyTargets(what: string): InputError {
  return new InputError(
    'manifests',
    `${what}; kubewait waits for at most ${MAX_TARGETS} targets in one step. Split them over several steps, like manifests: k8s/frontend/*.yaml and manifests: k8s/backend/*.yaml.`,
  );
}

/** The largest request body the Kubernetes API server accepts (apiserver's MaxRequestBodyBytes, 3 MiB): a
 *  larger document can never be applied, so it cannot be an object to wait for. Refused before it is parsed:
 *  one 50 MB annotation took the YAML parser 17 s and 1.7 GB. */
export const MAX_DOCUMENT_BYTES = 3 * 1024 * 1024;

/** Throws a `manifests` input error for the first document of `text` larger than MAX_DOCUMENT_BYTES. Documents
 *  are split where YAML splits them, at a line starting with `---` or `...`; a byte is never more than 3 UTF-16 units
 *  apart, so only a long document is measured in bytes. */
function refuseOversizedDocument(text: string, file: string): void {
  if (text.length * 3 <= MAX_DOCUMENT_BYTES) return;
  const separator = /^(?:---|\.\.\.)(?=[ \t\r\n]|$)/gm;
  let start = 0;
  for (const end of [...Array.from(text.matchAll(separator), (match) => match.index), text.length]) {
    const length = end - start;
    if (length > MAX_DOCUMENT_BYTES / 3) {
      const bytes = Buffer.byteLength(text.slice(start, end));
      if (bytes > MAX_DOCUMENT_BYTES) {
        // The separator's line is the previous document's end; this one starts on the next.
        const line = text.slice(0, start).split('\n').length + (start > 0 ? 1 : 0);
        throw new InputError(
          'manifests',
          `Input "manifests" has "${file}" line ${line}, a document of ${mebibytes(bytes)}: the Kubernetes API server accepts at most ${mebibytes(MAX_DOCUMENT_BYTES)} per object, so it cannot be one to wait for. Expected manifests of objects as applied, like a Deployment of a few kilobytes; keep large data out of annotations.`,
          { file, line },
        );
      }
    }
    start = end;
  }
}

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
}

/**
 * What is wrong and where in a manifest text, for the caller to word: the `manifests` input reports an
 * input error naming the file; a Helm release (release/decode.ts) reports a broken release record.
 */
export interface ManifestProblem {
  file: string;
  line?: number;
  /** `yaml`: the text does not parse (`reason`: the parser's first line); `object`: a document is not a
   *  Kubernetes object; `name`: its name or namespace is not one Kubernetes accepts. */
  kind: 'yaml' | 'object' | 'name';
  reason: string;
}

export type ManifestFailure = (problem: ManifestProblem) => Error;

const inputFailure: ManifestFailure = ({ file, line, kind, reason }) => {
  const where = { file, ...(line && { line }) };
  switch (kind) {
    case 'yaml':
      return new InputError(
        'manifests',
        `Input "manifests" has "${file}", which is not valid YAML or JSON${line ? ` at line ${line}` : ''}: ${reason}.`,
        where,
      );
    case 'object':
      return new InputError(
        'manifests',
        `Input "manifests" has "${file}" line ${line ?? 1}, which is not a Kubernetes object: ${reason}. ${OBJECT_EXAMPLE}`,
        where,
      );
    case 'name':
      return new InputError('manifests', `Input "manifests" has "${file}" line ${line ?? 1}: ${reason}. ${OBJECT_EXAMPLE}`, where);
  }
};

/**
 * Pure: the targets in one manifest text. `document` says where the text came from (a workspace file, a
 * Helm release's manifest): each target's source is its line there, and messages name it; `fail` words the
 * errors (default: `manifests` input errors).
 */
export function targetsFromManifestText(text: string, document: ManifestDocument, fail: ManifestFailure = inputFailure): TargetSpec[] {
  const file = documentName(document);
  try {
    return parseManifestText(text, document, fail);
  } catch (error) {
    // `name: {{ .Values.name }}` parses as a nested mapping, or not at all: either way the real cause is a
    // template nobody rendered, and the line to show is the placeholder's, not the document's first. Only for
    // the manifests input: a Helm release's manifest is rendered by Helm.
    const placeholder = fail === inputFailure && error instanceof InputError ? templatePlaceholder(text) : undefined;
    if (!placeholder) throw error;
    throw new InputError(
      'manifests',
      `Input "manifests" has "${file}" line ${placeholder.line}, with the template placeholder ${placeholder.text}: it looks like an unrendered template. Render it first and pass the result, like helm template my-release ./chart > rendered.yaml, then manifests: rendered.yaml.`,
      { file, line: placeholder.line },
    );
  }
}

/** The first `{{ ... }}` outside a comment, with its line (1-based). Only asked once a document failed: a
 *  placeholder inside a string value (an alert rule's `{{ $value }}`) is data and parses fine. */
function templatePlaceholder(text: string): { line: number; text: string } | undefined {
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (/^\s*#/.test(line)) continue;
    const match = /\{\{-?\s*[^{}]*?\s*-?\}\}/.exec(line);
    if (match) return { line: index + 1, text: match[0] };
  }
  return undefined;
}

/** Documents are composed one at a time (a file of 100,000 documents never exists as 100,000 parsed
 *  trees), and each object leaves only its compact TargetSpec behind. */
function parseManifestText(text: string, document: ManifestDocument, fail: ManifestFailure): TargetSpec[] {
  const targets: TargetSpec[] = [];
  for (const target of manifestTargets(text, document, fail)) {
    targets.push(target);
    if (targets.length > MAX_TARGETS) throw tooManyTargets(`"${documentName(document)}" holds more than ${MAX_TARGETS} objects`);
  }
  return targets;
}

function* manifestTargets(text: string, from: ManifestDocument, fail: ManifestFailure): Generator<TargetSpec> {
  const file = documentName(from);
  const lineCounter = new LineCounter();
  const composer = new Composer();
  const parser = new Parser(lineCounter.addNewLine);
  for (const document of composer.compose(parser.parse(text), true)) {
    const error = document.errors[0];
    if (error) {
      // An error at the end of the file (an unclosed bracket) points past the last line: keep it on the file.
      // Composed documents carry offsets only (parseAllDocuments would add linePos): count lines here.
      const line = Math.min(lineCounter.linePos(error.pos[0]).line, text.replace(/\n$/, '').split('\n').length);
      const reason = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
      throw fail({ file, ...(line && { line }), kind: 'yaml', reason });
    }
    const root = document.contents;
    if (root === null || (!isMap(root) && !isSeq(root) && document.toJS() === null)) continue; // empty document
    const lineOf = (node: Node): number => lineCounter.linePos(node.range?.[0] ?? 0).line;
    yield* targetsFromObject(document.toJS(), root, { from, file, lineOf, fail });
  }
}

interface Place {
  from: ManifestDocument;
  /** `from` in words, for messages. */
  file: string;
  lineOf(node: Node): number;
  fail: ManifestFailure;
}

function targetsFromObject(value: unknown, node: Node, place: Place, fromList?: { apiVersion?: string; kind?: string }): TargetSpec[] {
  const line = place.lineOf(node);
  const object = asRecord(value);
  if (!object) return notAnObject(place, line, 'it is not a mapping');
  const kind = str(object.kind) ?? fromList?.kind;
  const apiVersion = str(object.apiVersion) ?? fromList?.apiVersion;

  if (kind?.endsWith('List') && Array.isArray(object.items)) {
    const itemNodes = isMap(node) ? node.get('items', true) : undefined;
    const items = isSeq(itemNodes) ? itemNodes.items : [];
    const itemDefaults = { apiVersion, kind: kind === 'List' ? undefined : kind.slice(0, -'List'.length) };
    return object.items.flatMap((item, index) => targetsFromObject(item, (items[index] as Node | undefined) ?? node, place, itemDefaults));
  }
  if (!apiVersion) return notAnObject(place, line, 'it has no apiVersion');
  if (!kind) return notAnObject(place, line, 'it has no kind');
  const metadata = asRecord(object.metadata);
  const name = str(metadata?.name);
  if (!name) {
    const why = str(metadata?.generateName) ? 'it has only metadata.generateName, so its name is not known before it is created' : 'it has no metadata.name';
    return notAnObject(place, line, why);
  }
  const namespace = str(metadata?.namespace);
  // The same rules as names in `resources`: `../x` must not become a request path.
  const problem = objectNameProblem(name) ?? (namespace !== undefined ? namespaceNameProblem(namespace) : undefined);
  if (problem) throw place.fail({ file: place.file, line, kind: 'name', reason: problem });
  const defines = kind === 'CustomResourceDefinition' && apiVersion.startsWith('apiextensions.k8s.io/') ? definedType(object) : undefined;
  return [{ type: kind, apiVersion, name, ...(namespace && { namespace }), source: { ...place.from, line }, ...(defines && { defines }) }];
}

function notAnObject(place: Place, line: number, why: string): never {
  throw place.fail({ file: place.file, line, kind: 'object', reason: why });
}

const PATTERNS_EXAMPLE = 'Expected paths or globs of YAML or JSON files, like k8s/*.yaml or deploy/app.json.';

async function manifestFiles(patterns: string[], workspace: WorkspaceFiles): Promise<string[]> {
  const files = new Set<string>();
  for (const match of await workspace.match(patterns, { exclusions: true, directoryFiles: MANIFEST_EXTENSIONS })) {
    if ('error' in match) throw match.error;
    if ('refused' in match) throw new InputError('manifests', `Input "manifests" has "${match.pattern}", which ${match.refused}. ${PATTERNS_EXAMPLE}`);
    if (match.files.length === 0) {
      throw new InputError('manifests', `Input "manifests" has "${match.pattern}", which matches no manifest file. ${PATTERNS_EXAMPLE}`);
    }
    match.files.forEach((file) => files.add(file));
  }
  return [...files].sort();
}

async function readManifest(workspace: WorkspaceFiles, file: string, displayName: string): Promise<string> {
  const read = await workspace.read(file);
  if ('text' in read) return read.text;
  throw new InputError(
    'manifests',
    `Input "manifests" has "${displayName}", which cannot be read (${read.reason}). Expected readable YAML or JSON files, like k8s/*.yaml.`,
    { file: displayName },
  );
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
