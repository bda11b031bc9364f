/** parseSmoke: the `smoke` input's checks, and its errors naming the input with an example. */
import { describe, expect, it } from '@jest/globals';
import { parseSmoke, SMOKE_EXAMPLE } from '../../src/smoke/parse.js';
import { InputError } from '../../src/settings.js';

describe('parseSmoke', () => {
  it('reads url and service checks with their defaults', () => {
    const checks = parseSmoke(
      `- url: https://staging.example.com/healthz
  expect-status: 200-299,304
  expect-body: '"status":"ok"'
  consecutive: 3
  interval: 500ms
- service: shop/web:http
  path: /readyz
- service: api:8080
  method: head`,
      'default',
    );
    expect(checks).toEqual([
      {
        name: 'https://staging.example.com/healthz',
        target: { url: 'https://staging.example.com/healthz' },
        method: 'GET',
        expectStatus: [
          [200, 299],
          [304, 304],
        ],
        expectBody: { contains: '"status":"ok"' },
        consecutive: 3,
        intervalMs: 500,
      },
      {
        name: 'service shop/web:http/readyz',
        target: { service: { namespace: 'shop', name: 'web', port: 'http' }, path: '/readyz' },
        method: 'GET',
        expectStatus: [[200, 299]],
        consecutive: 1,
        intervalMs: 2000,
      },
      {
        name: 'service default/api:8080/',
        target: { service: { namespace: 'default', name: 'api', port: '8080' }, path: '/' },
        method: 'HEAD',
        expectStatus: [[200, 299]],
        consecutive: 1,
        intervalMs: 2000,
      },
    ]);
  });

  it('is empty when unset', () => {
    expect(parseSmoke('  \n', 'default')).toEqual([]);
  });

  it("reads a url check's headers from the environment variables they name", () => {
    const [check] = parseSmoke('- url: https://x\n  headers:\n    Authorization: SMOKE_TOKEN', 'default', { SMOKE_TOKEN: 'Bearer t' });
    expect(check?.headers).toEqual({ Authorization: 'Bearer t' });
  });

  it.each([
    ['- url: https://x\n  headers:\n    Authorization: Bearer abc', '`headers`.Authorization must name an environment variable'],
    ['- url: https://x\n  headers:\n    Authorization: UNSET_TOKEN', 'names the environment variable UNSET_TOKEN, which is not set'],
    ['- url: https://x\n  headers: [a]', '`headers` is not a mapping'],
    ['- service: a:80\n  headers:\n    Authorization: SMOKE_TOKEN', '`headers` are sent with a `url` check only'],
  ])('refuses headers %j: %s', (text, problem) => {
    expect(() => parseSmoke(text, 'default', { SMOKE_TOKEN: 't' })).toThrow(problem);
    expect(() => parseSmoke(text, 'default', { SMOKE_TOKEN: 't' })).toThrow(InputError);
  });

  it.each([
    ['jsonpath={.status}=ok', { jsonPath: '{.status}', value: 'ok' }],
    ['\'jsonpath={.checks[?(@.name=="db")].state}=up\'', { jsonPath: '{.checks[?(@.name=="db")].state}', value: 'up' }],
    ['jsonpath=.version', { jsonPath: '{.version}' }],
    ['\'jsonpath={.ready}="true"\'', { jsonPath: '{.ready}', value: 'true' }],
    ['\'"status": "ok"\'', { contains: '"status": "ok"' }],
  ])('reads expect-body %s as wait-for reads a jsonpath, else as a substring', (written, expected) => {
    const [check] = parseSmoke(`- url: https://x\n  expect-body: ${written}`, 'default');
    expect(check?.expectBody).toEqual(expected);
  });

  it.each([
    ['url: https://x', 'it is not a list'],
    ['- [a, b]', 'check 1 is not a mapping'],
    ['- url: https://x\n  service: a:80', 'check 1 needs exactly one of `url` and `service`'],
    ['- path: /x', 'check 1 needs exactly one of `url` and `service`'],
    ['- url: ftp://x', 'check 1: `url` is "ftp://x": expected an http or https URL'],
    ['- url: https://x\n  method: POST', 'check 1: `method` is "POST": only GET and HEAD are sent'],
    ['- url: https://x\n  expect-status: 2xx', 'check 1: `expect-status` is "2xx": expected codes or ranges, like 200-299 or 200,204'],
    ['- url: https://x\n  consecutive: 0', 'check 1: `consecutive` is "0": expected a whole number of 1 or more'],
    ['- url: https://x\n  interval: soon', 'check 1: `interval` is "soon": expected a duration like 2s'],
    ['- url: https://x\n  body: x', 'check 1 has the unknown key "body"'],
    ['- url: https://x\n  method: HEAD\n  expect-body: ok', 'check 1: `expect-body` needs a body, and a HEAD answer has none: use GET'],
    [
      '- url: https://x\n  expect-body: jsonpath={.status=ok',
      "check 1: `expect-body` is \"jsonpath={.status=ok\": the JSONPath expression is not valid (unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'); expected a substring, or jsonpath=EXPR[=VALUE] like jsonpath={.status}=ok",
    ],
    [
      '- url: https://x\n  expect-body: jsonpath={.status}=',
      'check 1: `expect-body` is "jsonpath={.status}=": the value after "=" is empty; expected a substring, or jsonpath=EXPR[=VALUE] like jsonpath={.status}=ok',
    ],
    ['- service: web', 'check 1: `service` is "web": expected namespace/name:port, like shop/web:http'],
    ['- url: https://x\n- service: a:80\n  path: readyz', 'check 2: `path` is "readyz": expected a path starting with /'],
  ])('%j is an input error naming smoke with an example', (text, problem) => {
    let thrown: unknown;
    try {
      parseSmoke(text, 'default');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InputError);
    expect((thrown as InputError).input).toBe('smoke');
    expect((thrown as InputError).message).toBe(`Input "smoke": ${problem}. Expected a YAML list of checks, like:\n${SMOKE_EXAMPLE}`);
  });
});
