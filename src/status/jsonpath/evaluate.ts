/**
 * Evaluates a parsed Kubernetes JSONPath template against a JSON value like client-go's JSONPath.FindResults
 * with AllowMissingKeys(true) (what `kubectl wait` uses). Returns one result list per template node.
 */
import { goType, isInt64, isPlainObject } from '../go-format.js';
import type { ListNode, Node, SliceParam } from './parser.js';

export class JsonPathEvalError extends Error {}

type Value = unknown;

export function findResults(root: ListNode, data: Value): Value[][] {
  const state: RangeState = { depth: 0 };
  return root.nodes.map((node) => walk([data], node, state));
}

/** `range`/`end` are template loops; kubectl wait expressions cannot contain braces, so only a stray one errors. */
interface RangeState {
  depth: number;
}

function walk(input: Value[], node: Node, state: RangeState): Value[] {
  switch (node.kind) {
    case 'list':
      return node.nodes.reduce<Value[]>((values, child) => walk(values, child, state), input);
    case 'text':
      return [node.text];
    case 'field':
      return evalField(input, node.name);
    case 'array':
      return evalArray(input, node.params);
    case 'filter':
      return evalFilter(input, node, state);
    case 'int':
    case 'float':
    case 'bool':
      return input.map(() => node.value);
    case 'wildcard':
      return input.flatMap(children);
    case 'recursive':
      return evalRecursive(input);
    case 'union':
      return node.nodes.flatMap((child) => walk(input, child, state));
    case 'identifier':
      if (node.name === 'range') throw new JsonPathEvalError('range is not supported in a wait expression');
      if (node.name === 'end') throw new JsonPathEvalError('not in range, nothing to end');
      throw new JsonPathEvalError(`unrecognized identifier ${node.name}`);
  }
}

const isNil = (value: Value): boolean => value === null || value === undefined;

function evalField(input: Value[], name: string): Value[] {
  const results: Value[] = [];
  for (const value of input) {
    if (isPlainObject(value) && Object.hasOwn(value, name)) results.push(value[name]);
  }
  return results;
}

/** The elements of a map (in key order), an array, or a string's UTF-8 bytes, as reflect would list them. */
function children(value: Value): Value[] {
  if (isNil(value)) return [];
  if (Array.isArray(value)) return value;
  if (isPlainObject(value)) return Object.values(value);
  if (typeof value === 'string') return [...Buffer.from(value, 'utf8')];
  return [];
}

function evalRecursive(input: Value[]): Value[] {
  const result: Value[] = [];
  for (const value of input) {
    const inner = children(value);
    if (inner.length > 0) result.push(value, ...evalRecursive(inner));
  }
  return result;
}

function evalArray(input: Value[], nodeParams: [SliceParam, SliceParam, SliceParam]): Value[] {
  const result: Value[] = [];
  for (const value of input) {
    if (isNil(value)) continue;
    if (!Array.isArray(value)) throw new JsonPathEvalError(`${goType(value)} is not array or slice`);
    const [first, second, step] = nodeParams.map((p) => ({ ...p })) as [SliceParam, SliceParam, SliceParam];
    const length = value.length;
    if (!first.known) first.value = 0;
    if (first.value < 0) first.value += length;
    if (!second.known) second.value = length;
    if (second.value < 0 || (second.value === 0 && second.derived)) second.value += length;
    if (second.value === first.value) return result;
    if (first.value >= length || first.value < 0) {
      throw new JsonPathEvalError(`array index out of bounds: index ${first.value}, length ${length}`);
    }
    if (second.value > length || second.value < 0) {
      throw new JsonPathEvalError(`array index out of bounds: index ${second.value - 1}, length ${length}`);
    }
    if (first.value > second.value) {
      throw new JsonPathEvalError(`starting index ${first.value} is greater than ending index ${second.value}`);
    }
    let stride = 1;
    if (step.known) {
      if (step.value <= 0) throw new JsonPathEvalError('step must be > 0');
      stride = step.value;
    }
    const slice = value.slice(first.value, second.value);
    for (let i = 0; i < slice.length; i += stride) result.push(slice[i]);
  }
  return result;
}

function evalFilter(input: Value[], node: Extract<Node, { kind: 'filter' }>, state: RangeState): Value[] {
  const results: Value[] = [];
  for (const value of input) {
    if (!Array.isArray(value)) {
      // The type, not the value as client-go prints it: the value may be a whole object, or a Secret's data.
      throw new JsonPathEvalError(`${goType(value)} is not array or slice and cannot be filtered`);
    }
    for (const item of value) {
      if (node.operator === 'exists') {
        let lefts: Value[] = [];
        try {
          lefts = walk([item], node.left, state);
        } catch {
          // client-go ignores evaluation errors for an existence filter.
        }
        if (lefts.length > 0) results.push(item);
        continue;
      }
      const left = single(walk([item], node.left, state));
      if (left === NONE) continue;
      const right = single(walk([item], node.right, state));
      if (right === NONE) continue;
      if (compare(node.operator, left, right)) results.push(item);
    }
  }
  return results;
}

const NONE = Symbol('none');

function single(values: Value[]): Value | typeof NONE {
  if (values.length === 0) return NONE;
  if (values.length > 1) throw new JsonPathEvalError('can only compare one element at a time');
  return values[0];
}

type BasicKind = 'bool' | 'int' | 'float' | 'string';

/** text/template's basicKind, for JSON values: undefined for null, maps and arrays. */
function basicKind(value: Value): BasicKind | undefined {
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return isInt64(value) ? 'int' : 'float';
  return undefined;
}

const BAD_COMPARISON = 'incompatible types for comparison';
const BAD_COMPARISON_TYPE = 'invalid type for comparison';

/** text/template's eq/ne/lt/le/gt/ge. */
function compare(operator: string, left: Value, right: Value): boolean {
  switch (operator) {
    case '==':
      return equal(left, right);
    case '!=':
      return !equal(left, right);
    case '<':
      return less(left, right);
    case '>':
      return !(less(left, right) || equal(left, right));
    case '<=':
      return less(left, right) || equal(left, right);
    case '>=':
      return !less(left, right);
    default:
      throw new JsonPathEvalError(`unrecognized filter operator ${operator}`);
  }
}

function equal(left: Value, right: Value): boolean {
  const k1 = basicKind(left);
  const k2 = basicKind(right);
  if (k1 !== k2) {
    if (!isNil(left) && !isNil(right)) throw new JsonPathEvalError(BAD_COMPARISON);
    return false;
  }
  if (k1 === undefined) {
    if (isNil(left) || isNil(right)) return isNil(left) === isNil(right);
    // client-go prints the left value; a Secret's value must not reach a message.
    throw new JsonPathEvalError(`non-comparable types ${goType(left)}: ${goType(right)}`);
  }
  return left === right;
}

function less(left: Value, right: Value): boolean {
  const k1 = basicKind(left);
  const k2 = basicKind(right);
  if (k1 === undefined || k2 === undefined) throw new JsonPathEvalError(BAD_COMPARISON_TYPE);
  if (k1 !== k2) throw new JsonPathEvalError(BAD_COMPARISON);
  if (k1 === 'bool') throw new JsonPathEvalError(BAD_COMPARISON_TYPE);
  return (left as number | string) < (right as number | string);
}
