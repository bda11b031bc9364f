/** parseSmoke: the `smoke` input's checks, and its errors naming the input with an example. */
import { describe, expect, it } from '@jest/globals';
import { parseSmoke } from '../../src/smoke/parse.js';
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
        expectBody: '"status":"ok"',
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
    ['- url: https://x\n  headers: {a: b}', 'check 1 has the unknown key "headers"'],
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
    expect((thrown as InputError).message).toBe(
      `Input "smoke": ${problem}. Expected a YAML list of checks, like:\nsmoke: |\n  - url: https://staging.example.com/healthz\n    expect-status: 200-299\n    expect-body: '"status":"ok"'\n    consecutive: 3\n    interval: 2s\n  - service: shop/web:http\n    path: /readyz`,
    );
  });
});
