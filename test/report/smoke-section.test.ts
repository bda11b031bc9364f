/** The summary's "Smoke checks" section. */
import { describe, expect, it } from '@jest/globals';
import { renderSummary } from '../../src/report/summary.js';
import { smokeSection } from '../../src/report/smoke-section.js';
import { ready, result } from './fixtures.js';

describe('smokeSection', () => {
  it('has one row per check, the body of one that did not pass cut to 200 characters', () => {
    const section = smokeSection({
      smoke: [
        { name: 'https://staging.example.com/healthz', ok: true, status: 200, attempts: 3, latencyMs: 12, body: '{"status":"ok"}' },
        {
          name: 'service shop/web:http/readyz',
          ok: false,
          status: 503,
          attempts: 9,
          latencyMs: 4,
          body: `down|${'x'.repeat(300)}`,
          reason: 'expected status 200-299',
        },
      ],
    });
    expect(section?.split('\n')).toEqual([
      '### Smoke checks',
      '',
      '| Check | Result | Last status | Attempts | Latency | Last body |',
      '| --- | --- | --- | --- | --- | --- |',
      '| https://staging.example.com/healthz | passed | 200 | 3 | 12 ms |   |',
      `| service shop/web:http/readyz | **did not pass**: expected status 200-299 | 503 | 9 | 4 ms | down\\|${'x'.repeat(195)}… |`,
    ]);
  });

  it('is left out without checks, and is in the summary with them', () => {
    expect(smokeSection({})).toBeUndefined();
    const summary = renderSummary(
      {
        ...result([ready('web')], { outcome: 'failed' }),
        smoke: [{ name: 'https://x', ok: false, status: 0, attempts: 1, latencyMs: 0, body: 'ECONNREFUSED' }],
      },
      { waitFor: { kind: 'ready' } } as Parameters<typeof renderSummary>[1],
    );
    expect(summary).toContain('### Smoke checks');
    expect(summary).toContain('| https://x | **did not pass** | no answer | 1 | 0 ms | ECONNREFUSED |');
  });
});
