/**
 * The `smoke` input: a YAML list of HTTP checks run once every target is ready. Each has `url:` (fetched
 * from the runner) or `service: namespace/name:port` with `path:` (through the API server's service
 * proxy: no ingress or network path from the runner needed), `method` (GET or HEAD), `expect-status`
 * (codes and ranges, default 200-299), `expect-body` (a substring, or `jsonpath=EXPR[=VALUE]` on a JSON body,
 * read as `wait-for: jsonpath=` is), `consecutive` passes in a row (default
 * 1), `interval` between tries (default 2s), and for a `url:` `headers` whose values name environment
 * variables (`Authorization: SMOKE_TOKEN`): a credential never written in the workflow file, and masked
 * before anything could show it. A bad list is an `InputError` naming `smoke`, with an example.
 */
import { parse } from 'yaml';
import { InputError } from '../settings.js';
import { parseDurationMs, parseJsonPathCheck } from '../inputs.js';

export interface SmokeCheck {
  /** How the report names it: the URL, or `service ns/name:port/path`. */
  name: string;
  target: { url: string } | { service: { namespace: string; name: string; port: string }; path: string };
  method: 'GET' | 'HEAD';
  /** Inclusive ranges of accepted status codes. */
  expectStatus: Array<[number, number]>;
  expectBody?: BodyExpectation;
  consecutive: number;
  intervalMs: number;
  /** Request headers of a `url:` check, their values read from the environment variables `headers` named. */
  headers?: Record<string, string>;
}

/** What the body must hold: a substring, or (`jsonpath=`) a JSON body whose path has that value (or exists). */
export type BodyExpectation = { contains: string } | { jsonPath: string; value?: string };

export const SMOKE_EXAMPLE = `smoke: |
  - url: https://staging.example.com/healthz
    expect-status: 200-299
    expect-body: '"status":"ok"'
    consecutive: 3
    interval: 2s
  - service: shop/web:http
    path: /readyz
    expect-body: jsonpath={.status}=ok   # on a JSON body
  - url: https://staging.example.com/api/orders
    headers:
      Authorization: SMOKE_TOKEN   # the name of an environment variable holding the value`;

const METHODS = ['GET', 'HEAD'] as const;
const KEYS = new Set(['url', 'service', 'path', 'method', 'expect-status', 'expect-body', 'consecutive', 'interval', 'headers']);

function fail(problem: string): never {
  throw new InputError('smoke', `Input "smoke": ${problem}. Expected a YAML list of checks, like:\n${SMOKE_EXAMPLE}`);
}

/** `env`: where `headers` values are read from (default: the process's environment). */
export function parseSmoke(text: string, defaultNamespace: string, env: NodeJS.ProcessEnv = process.env): SmokeCheck[] {
  if (text.trim() === '') return [];
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    fail(`it is not YAML (${(error as Error).message.split('\n')[0]})`);
  }
  if (!Array.isArray(document)) fail('it is not a list');
  return document.map((entry, i) => parseCheck(entry, i, defaultNamespace, env));
}

function parseCheck(entry: unknown, i: number, defaultNamespace: string, env: NodeJS.ProcessEnv): SmokeCheck {
  const where = `check ${i + 1}`;
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) fail(`${where} is not a mapping`);
  const check = entry as Record<string, unknown>;
  const unknown = Object.keys(check).filter((key) => !KEYS.has(key));
  if (unknown.length > 0) fail(`${where} has the unknown key ${JSON.stringify(unknown[0])}`);
  const text = (key: string): string | undefined => {
    const value = check[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string' && typeof value !== 'number') fail(`${where}: \`${key}\` is not a string`);
    return String(value);
  };
  const url = text('url');
  const service = text('service');
  if ((url === undefined) === (service === undefined)) fail(`${where} needs exactly one of \`url\` and \`service\``);
  const methodText = (text('method') ?? 'GET').toUpperCase();
  const method = METHODS.find((m) => m === methodText) ?? fail(`${where}: \`method\` is "${methodText}": only GET and HEAD are sent`);
  const consecutive = Number(text('consecutive') ?? '1');
  if (!Number.isInteger(consecutive) || consecutive < 1) fail(`${where}: \`consecutive\` is "${text('consecutive')}": expected a whole number of 1 or more`);
  const intervalText = text('interval') ?? '2s';
  const intervalMs = parseDurationMs(intervalText);
  if (intervalMs === undefined || intervalMs <= 0) fail(`${where}: \`interval\` is "${intervalText}": expected a duration like 2s`);
  const expectStatus = parseStatusRanges(text('expect-status') ?? '200-299', where);
  const expectBodyText = text('expect-body');
  const expectBody = expectBodyText === undefined ? undefined : parseBodyExpectation(expectBodyText, where);
  // A HEAD answer has no body: such a check could never pass.
  if (expectBody && method === 'HEAD') fail(`${where}: \`expect-body\` needs a body, and a HEAD answer has none: use GET`);
  const common = { method, expectStatus, consecutive, intervalMs, ...(expectBody !== undefined ? { expectBody } : {}) };
  if (url !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      fail(`${where}: \`url\` is "${url}": expected an http or https URL`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') fail(`${where}: \`url\` is "${url}": expected an http or https URL`);
    const headers = parseHeaders(check['headers'], where, env);
    return { name: url, target: { url }, ...common, ...(headers && { headers }) };
  }
  // The API server's proxy does not pass a credential on to the Service: a header there would mislead.
  if (check['headers'] !== undefined) fail(`${where}: \`headers\` are sent with a \`url\` check only, not through the service proxy`);
  const match = /^(?:([a-z0-9-]+)\/)?([a-z0-9-]+):([a-z0-9-]+)$/.exec(service!);
  if (!match) fail(`${where}: \`service\` is "${service}": expected namespace/name:port, like shop/web:http`);
  const path = text('path') ?? '/';
  if (!path.startsWith('/')) fail(`${where}: \`path\` is "${path}": expected a path starting with /`);
  const namespace = match[1] ?? defaultNamespace;
  return { name: `service ${namespace}/${match[2]}:${match[3]}${path}`, target: { service: { namespace, name: match[2]!, port: match[3]! }, path }, ...common };
}

/** `jsonpath=EXPR[=VALUE]` (the same reading as `wait-for`'s), else the text is a substring. */
function parseBodyExpectation(text: string, where: string): BodyExpectation {
  if (!text.toLowerCase().startsWith('jsonpath=')) return { contains: text };
  const parsed = parseJsonPathCheck(text.slice('jsonpath='.length));
  if ('problem' in parsed) {
    fail(`${where}: \`expect-body\` is "${text}": ${parsed.problem}; expected a substring, or jsonpath=EXPR[=VALUE] like jsonpath={.status}=ok`);
  }
  return { jsonPath: parsed.expression, ...(parsed.value !== undefined && { value: parsed.value }) };
}

/** `200`, `200-299`, `200,204,300-399`. */
function parseStatusRanges(text: string, where: string): Array<[number, number]> {
  return text.split(',').map((part) => {
    const match = /^\s*(\d{3})(?:\s*-\s*(\d{3}))?\s*$/.exec(part);
    const low = Number(match?.[1]);
    const high = Number(match?.[2] ?? match?.[1]);
    if (!match || low > high) fail(`${where}: \`expect-status\` is "${text}": expected codes or ranges, like 200-299 or 200,204`);
    return [low, high] as [number, number];
  });
}

/** `headers`: header names to the environment variables holding their values (never a value itself). */
function parseHeaders(value: unknown, where: string, env: NodeJS.ProcessEnv): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) fail(`${where}: \`headers\` is not a mapping of header names to environment variables`);
  const headers: Record<string, string> = {};
  for (const [header, variable] of Object.entries(value as Record<string, unknown>)) {
    if (!/^[A-Za-z0-9-]+$/.test(header)) fail(`${where}: \`headers\` has ${JSON.stringify(header)}, which is no header name`);
    if (typeof variable !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) {
      fail(`${where}: \`headers\`.${header} must name an environment variable holding the value (like SMOKE_TOKEN), not the value itself`);
    }
    const held = env[variable];
    if (held === undefined || held === '') fail(`${where}: \`headers\`.${header} names the environment variable ${variable}, which is not set`);
    headers[header] = held;
  }
  return headers;
}
