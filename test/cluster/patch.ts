/** PATCH bodies: JSON merge patch (RFC 7386), JSON patch (RFC 6902), and strategic merge patch reduced to
 *  merge patch plus merging lists of named items by their key (what kubectl set/rollout send). */
import { errors } from './errors.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function isObject(v: unknown): v is Record<string, Json> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function mergePatch(target: Json | undefined, patch: Json): Json {
  if (!isObject(patch)) return structuredClone(patch);
  const out: Record<string, Json> = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** The key a strategic merge patch merges list items by, when every item has it. */
function mergeKeyOf(items: Json[]): string | undefined {
  for (const key of ['name', 'type', 'containerPort', 'mountPath', 'devicePath', 'ip']) {
    if (items.length > 0 && items.every((i) => isObject(i) && i[key] !== undefined)) return key;
  }
  return undefined;
}

export function strategicMergePatch(target: Json | undefined, patch: Json): Json {
  if (Array.isArray(patch) && Array.isArray(target)) {
    const key = mergeKeyOf(patch);
    if (!key || !target.every((i) => isObject(i) && i[key] !== undefined)) return structuredClone(patch);
    const out = target.map((i) => structuredClone(i)) as Array<Record<string, Json>>;
    for (const item of patch as Array<Record<string, Json>>) {
      const at = out.findIndex((o) => o[key] === item[key]);
      if (item.$patch === 'delete') {
        if (at >= 0) out.splice(at, 1);
      } else if (at >= 0) out[at] = strategicMergePatch(out[at], item) as Record<string, Json>;
      else out.push(structuredClone(item));
    }
    return out;
  }
  if (!isObject(patch)) return structuredClone(patch);
  if (patch.$patch === 'replace') {
    const { $patch: _p, ...rest } = patch;
    return structuredClone(rest);
  }
  const out: Record<string, Json> = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$')) continue; // directives like $setElementOrder only order lists
    if (v === null) delete out[k];
    else out[k] = strategicMergePatch(out[k], v);
  }
  return out;
}

function unescapePointer(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function parentOf(doc: Json, path: string): { parent: Json; key: string } {
  const tokens = path.split('/').slice(1).map(unescapePointer);
  if (tokens.length === 0) throw errors.badRequest('the server rejected our request due to an error in our request');
  let cur: Json | undefined = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[Number(t)];
    else if (isObject(cur)) cur = cur[t];
    else cur = undefined;
    if (cur === undefined) throw errors.invalid('', '', '', [{ field: path, message: `doc is missing path: "${path}": missing value` }]);
  }
  return { parent: cur, key: tokens[tokens.length - 1] ?? '' };
}

function getAt(doc: Json, path: string): Json {
  if (path === '') return doc;
  const { parent, key } = parentOf(doc, path);
  const v = Array.isArray(parent) ? parent[Number(key)] : isObject(parent) ? parent[key] : undefined;
  if (v === undefined) throw errors.invalid('', '', '', [{ field: path, message: `doc is missing path: "${path}": missing value` }]);
  return v;
}

function removeAt(doc: Json, path: string): Json {
  const { parent, key } = parentOf(doc, path);
  const v = getAt(doc, path);
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else if (isObject(parent)) delete parent[key];
  return v;
}

function addAt(doc: Json, path: string, value: Json): Json {
  if (path === '') return value;
  const { parent, key } = parentOf(doc, path);
  if (Array.isArray(parent)) {
    if (key === '-') parent.push(value);
    else parent.splice(Number(key), 0, value);
  } else if (isObject(parent)) parent[key] = value;
  else throw errors.invalid('', '', '', [{ field: path, message: `doc is missing path: "${path}"` }]);
  return doc;
}

interface Operation {
  op: string;
  path: string;
  from?: string;
  value?: Json;
}

export function jsonPatch(target: Json, ops: unknown): Json {
  if (!Array.isArray(ops)) throw errors.badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  let doc = structuredClone(target);
  for (const op of ops as Operation[]) {
    switch (op.op) {
      case 'add':
        doc = addAt(doc, op.path, structuredClone(op.value ?? null));
        break;
      case 'remove':
        removeAt(doc, op.path);
        break;
      case 'replace':
        removeAt(doc, op.path);
        doc = addAt(doc, op.path, structuredClone(op.value ?? null));
        break;
      case 'move': {
        const v = removeAt(doc, op.from ?? '');
        doc = addAt(doc, op.path, v);
        break;
      }
      case 'copy':
        doc = addAt(doc, op.path, structuredClone(getAt(doc, op.from ?? '')));
        break;
      case 'test':
        if (JSON.stringify(getAt(doc, op.path)) !== JSON.stringify(op.value)) {
          throw errors.invalid('', '', '', [{ field: op.path, message: `testing value ${op.path} failed: test failed` }]);
        }
        break;
      default:
        throw errors.badRequest(`Unexpected kind: ${op.op}`);
    }
  }
  return doc;
}

export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

export function patchTypeOf(contentType: string | undefined): PatchType | undefined {
  const ct = (contentType ?? '').split(';')[0]?.trim() ?? '';
  return (
    {
      'application/merge-patch+json': 'merge',
      'application/json-patch+json': 'json',
      'application/strategic-merge-patch+json': 'strategic',
      'application/apply-patch+yaml': 'apply',
      'application/apply-patch+cbor': undefined,
    } as Record<string, PatchType | undefined>
  )[ct];
}

export function applyPatch(type: PatchType, target: object, patch: unknown): object {
  switch (type) {
    case 'merge':
      return mergePatch(target as Json, patch as Json) as object;
    case 'json':
      return jsonPatch(target as Json, patch) as object;
    case 'strategic':
    case 'apply':
      return strategicMergePatch(target as Json, patch as Json) as object;
  }
}
