/** lastMeaningfulLine on the way real runtimes end their output; annotationSummary's wording. */
import { describe, expect, it } from '@jest/globals';
import { annotationSummary, lastMeaningfulLine } from '../../src/status/log-lines.js';

const lines = (...l: string[]) => `${l.join('\n')}\n`;

describe('lastMeaningfulLine', () => {
  it.each<[string, string, string]>([
    [
      'Go panic with its goroutine dump',
      lines(
        'level=info msg="starting api" version=1.4.2',
        'panic: missing DATABASE_URL',
        '',
        'goroutine 1 [running]:',
        'main.mustEnv(...)',
        '\t/app/main.go:17',
        'main.main()',
        '\t/app/main.go:42 +0x1d',
        'exit status 2',
      ),
      'panic: missing DATABASE_URL',
    ],
    [
      'Java: the root cause, not the frames',
      lines(
        'Exception in thread "main" java.lang.IllegalStateException: cannot start',
        '\tat com.shop.App.main(App.java:12)',
        'Caused by: java.net.ConnectException: Connection refused',
        '\tat java.base/sun.nio.ch.Net.connect0(Native Method)',
        '\t... 3 more',
      ),
      'Caused by: java.net.ConnectException: Connection refused',
    ],
    [
      'Python traceback',
      lines(
        'Traceback (most recent call last):',
        '  File "/app/main.py", line 8, in <module>',
        '    main()',
        '  File "/app/main.py", line 5, in main',
        '    raise ValueError("missing DATABASE_URL")',
        'ValueError: missing DATABASE_URL',
      ),
      'ValueError: missing DATABASE_URL',
    ],
    [
      'Node.js uncaught error, banner after it',
      lines(
        '/app/server.js:12',
        "    throw new Error('missing DATABASE_URL');",
        '    ^',
        '',
        'Error: missing DATABASE_URL',
        '    at Object.<anonymous> (/app/server.js:12:11)',
        '    at Module._compile (node:internal/modules/cjs/loader:1554:14)',
        '',
        'Node.js v22.14.0',
      ),
      'Error: missing DATABASE_URL',
    ],
    [
      'an error log line followed by shutdown noise',
      lines('level=info msg="connecting"', 'level=error msg="dial tcp 10.96.0.15:5432: connect: connection refused"', 'level=info msg="shutting down"'),
      'level=error msg="dial tcp 10.96.0.15:5432: connect: connection refused"',
    ],
    [
      'JSON logs',
      lines('{"level":"info","msg":"start"}', '{"level":"fatal","msg":"config invalid","error":"port: must be a number"}', '}'),
      '{"level":"fatal","msg":"config invalid","error":"port: must be a number"}',
    ],
    ['nothing that says error: the last line', lines('loading model', 'allocating 4Gi', '', ''), 'allocating 4Gi'],
    ['colours and carriage returns are stripped', '\u001b[31mERROR\u001b[0m database unreachable\r\n', 'ERROR database unreachable'],
    ['"errors" in a word is not an error', lines('level=error msg="boom"', 'level=info msg="no errors in config"'), 'level=error msg="boom"'],
    ['empty log', '', ''],
  ])('%s', (_what, text, expected) => {
    expect(lastMeaningfulLine(text)).toBe(expected);
  });

  it('a very long line is shortened at a word boundary', () => {
    const line = `Error: ${'word '.repeat(100)}end`;
    const shown = lastMeaningfulLine(line);
    expect(shown.length).toBeLessThanOrEqual(301);
    expect(shown).toMatch(/^Error: word word .* word…$/);
  });
});

describe('annotationSummary', () => {
  it.each<[string, Parameters<typeof annotationSummary>[0], string, string]>([
    [
      'exit code and line',
      { reason: 'CrashLoopBackOff', exitCode: 1, terminationReason: 'Error' },
      'panic: missing DATABASE_URL',
      'exit 1: panic: missing DATABASE_URL',
    ],
    ['a telling termination reason is kept', { reason: 'CrashLoopBackOff', exitCode: 137, terminationReason: 'OOMKilled' }, '', 'exit 137 (OOMKilled)'],
    [
      'no logs possible',
      { reason: 'ImagePullBackOff', noLogs: 'ImagePullBackOff: Back-off pulling image "shop/api:2.0"' },
      '',
      'ImagePullBackOff: Back-off pulling image "shop/api:2.0"',
    ],
    ['running but not ready', { reason: 'NotReady' }, 'level=warn msg="db not reachable yet"', 'NotReady: level=warn msg="db not reachable yet"'],
    ['nothing else known', { reason: 'NotReady' }, '', 'NotReady'],
  ])('%s', (_what, container, line, expected) => {
    expect(annotationSummary(container, line)).toBe(expected);
  });
});
