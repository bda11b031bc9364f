/** The bench's pure helpers (no timing here: the bench itself never runs under `npm test`). */
import { describe, expect, it } from '@jest/globals';
import { table } from '../../bench/markdown.js';
import { plan, schedule, selectScenarios } from '../../bench/plan.js';
import { formatMs, formatSummary, median, ratio, summarize } from '../../bench/stats.js';
import { layout, namespaceName } from '../../bench/fixture.js';
import { setAppendix } from '../../bench/sections.js';
import { resourcesInput } from '../../bench/waiters.js';

describe('median', () => {
  it.each([
    [[5], 5],
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
    [[], Number.NaN],
  ])('of %j is %d', (values, expected) => {
    expect(median(values)).toBe(expected);
  });

  it('does not reorder its input', () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe('summaries and formatting', () => {
  it('summarizes only finite values', () => {
    expect(summarize([10, Number.NaN, 30, 20])).toEqual({ n: 3, median: 20, min: 10, max: 30 });
  });

  it.each([
    [0.25, '0.3 ms'],
    [42.4, '42 ms'],
    [12_345, '12.3 s'],
    [Number.NaN, '—'],
  ])('formats %d ms as %s', (ms, text) => {
    expect(formatMs(ms)).toBe(text);
  });

  it('shows median, range and count, or a lone value', () => {
    expect(formatSummary(summarize([30, 10, 20]))).toBe('20 ms (10 ms–30 ms, n=3)');
    expect(formatSummary(summarize([20]))).toBe('20 ms');
    expect(formatSummary(summarize([]))).toBe('—');
  });

  it.each([
    [300, 20, '15×'],
    [50, 20, '2.5×'],
    [5, 20, '0.25×'],
    [5, 0, '—'],
    [Number.NaN, 3, '—'],
  ])('ratio %d / %d is %s', (a, b, text) => {
    expect(ratio(a, b)).toBe(text);
  });
});

describe('table', () => {
  it('pads columns, aligns right where asked and escapes pipes', () => {
    expect(
      table(
        ['name', { title: 'ms', align: 'right' }],
        [
          ['a|b', 5],
          ['long name', 1234],
        ],
      ),
    ).toBe(['| name      |   ms |', '|-----------|-----:|', '| a\\|b      |    5 |', '| long name | 1234 |'].join('\n'));
  });
});

describe('plan', () => {
  it('covers 1 to 5,000 Deployments and the 50-namespace spread in the full run', () => {
    const cells = plan(false).map((p) => `${p.deployments}x${p.namespaces}`);
    expect(cells).toEqual(expect.arrayContaining(['1x1', '100x10', '1000x1', '1000x50', '5000x50']));
  });

  it('runs one repetition of small sizes when quick', () => {
    for (const p of plan(true)) {
      expect(p.deployments).toBeLessThanOrEqual(100);
      expect(Object.values(p.runs).every((n) => n === 1)).toBe(true);
    }
  });

  it('interleaves waiters repetition by repetition', () => {
    const [first] = plan(false);
    const order = schedule({ ...first!, runs: { 'kubewait-watch': 2, 'kubectl-wait': 1 } });
    expect(order.map((s) => `${s.waiter}#${s.rep}`)).toEqual(['kubewait-watch#0', 'kubectl-wait#0', 'kubewait-watch#1']);
  });

  it('selects cells by name', () => {
    expect(selectScenarios(plan(false), ['5000x50']).map((p) => p.namespaces)).toEqual([50]);
    expect(selectScenarios(plan(false), [])).toHaveLength(plan(false).length);
  });
});

describe('scenario layout', () => {
  it('spreads Deployments evenly over the namespaces', () => {
    const refs = layout({ deployments: 100, namespaces: 10 });
    const perNamespace = new Map<string, number>();
    for (const r of refs) perNamespace.set(r.namespace, (perNamespace.get(r.namespace) ?? 0) + 1);
    expect([...perNamespace.values()]).toEqual(Array(10).fill(10));
    expect(perNamespace.has(namespaceName(9))).toBe(true);
  });

  it('names 5,000 Deployments in one input that fits in one environment variable (128 KiB)', () => {
    const text = resourcesInput({ refs: layout({ deployments: 5000, namespaces: 50 }) });
    expect(text.split('\n')).toHaveLength(5000);
    expect(Buffer.byteLength(`INPUT_RESOURCES=${text}`)).toBeLessThan(128 * 1024);
  });
});

describe('appendices of RESULTS.md', () => {
  const heading = '## Real control plane (bench/real.ts)';
  const doc = [
    '# Results',
    '',
    '## Start-up',
    'figures',
    '',
    heading,
    '',
    'old table',
    '',
    '## Hand-written',
    'kept',
    '',
    '<!-- cel:start -->',
    'cel',
    '<!-- cel:end -->',
    '',
  ].join('\n');

  it('replaces only the appendix, up to the next heading, and keeps the rest byte for byte', () => {
    const updated = setAppendix(doc, heading, `${heading}\n\nnew table\n`);
    expect(updated).toBe(doc.replace('old table', 'new table'));
  });

  it('stops at a marked section and appends an appendix that is absent', () => {
    const last = ['# Results', '', heading, 'old', '', '<!-- cel:start -->', 'cel', '<!-- cel:end -->', ''].join('\n');
    expect(setAppendix(last, heading, `${heading}\nnew\n`)).toBe(last.replace('old', 'new'));
    expect(setAppendix('# Results\n', heading, `${heading}\nnew\n`)).toBe(`# Results\n\n${heading}\nnew\n`);
  });
});
