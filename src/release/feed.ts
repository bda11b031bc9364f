/**
 * The `release` input's feed (issue 14): follows the Helm release (follow.ts) beside the wait for the other
 * targets, and adds its objects to the wait once helm has settled it; the release as last read goes into the
 * result for the report (`report`).
 *
 * | release | what the feed does |
 * |---|---|
 * | deployed | adds its objects, waited for as `wait-for` says |
 * | pending-*, missing, or older than `release-min-revision` | reads it again every poll interval; at the deadline its known objects are reported, not judged, and the release says what it waited for |
 * | failed | adds its objects and fails the wait with Helm's description: they are judged briefly (FAILED_JUDGING_MS) so the summary shows which one broke |
 * | uninstalling | adds its objects with the goal `deleted` (the other targets keep `wait-for`) |
 * | superseded, uninstalled, unreadable, forbidden | an `error` naming the `release` input; its objects reported, not judged |
 */
import type { FeedContext, TargetFeed } from '../engine/types.js';
import type { ReleaseReport } from '../result.js';
import { InputError, type Settings } from '../settings.js';
import { releaseHeadline } from './decode.js';
import { settleRelease } from './follow.js';

export type ReleaseFeedSettings = Pick<Settings, 'release' | 'releaseMinRevision' | 'pollIntervalMs'> & {
  /** Where the release is stored: the step's namespace. */
  namespace: string;
};

export class ReleaseFeed implements TargetFeed {
  /** The release as last read and decided; set once the feed has read it (or failed to). */
  report?: ReleaseReport;

  /** `say`: the release's decisions, one line each, for the run's live log (the pipeline's sink): never
   *  stdout directly, so the command's `-o json` stays one document and its redactor sees every line. */
  constructor(
    private readonly settings: ReleaseFeedSettings,
    private readonly say: (line: string) => void,
  ) {}

  async run(ctx: FeedContext): Promise<void> {
    const { release: name, namespace } = this.settings;
    let settled;
    try {
      settled = await settleRelease(ctx.cluster.client, namespace, name, {
        pollIntervalMs: this.settings.pollIntervalMs,
        minRevision: this.settings.releaseMinRevision,
        signal: ctx.signal,
        onDecision: (decision) => this.say(`kubewait: ${decision.message}`),
        warn: (message) => ctx.warn(message),
        time: ctx.time,
      });
    } catch (error) {
      if (!(error instanceof InputError)) throw error; // credentials rejected: the step's one clean error
      this.report = { name, namespace, title: name, message: error.message };
      ctx.problem({ input: 'release', message: error.message });
      return;
    }

    const { decision, release } = settled;
    this.report =
      release === 'not-found'
        ? { name, namespace, title: name, message: decision.message }
        : { name, namespace, revision: release.revision, status: release.status, title: releaseHeadline(release), message: decision.message };
    const known = release === 'not-found' ? [] : release.targets;
    switch (decision.action) {
      case 'poll-again':
        // The wait ended (the deadline, a cancelled job, another target's verdict) while helm was still at
        // work, or before the release existed.
        this.report.verdict = 'unsettled';
        ctx.notJudged(known, `not judged: ${decision.message}`);
        return;
      case 'error':
        ctx.notJudged(known, `not judged: ${decision.message}`);
        ctx.problem({ input: 'release', message: decision.message });
        return;
      case 'wait':
        ctx.add(decision.targets);
        return;
      case 'wait-deleted':
        ctx.add(decision.targets, { goal: { kind: 'deleted' } });
        return;
      case 'fail':
        // Helm already said it failed: the objects are judged only briefly, then the wait fails with Helm's
        // words whatever they look like.
        this.report.verdict = 'failed';
        ctx.add(decision.targets);
        ctx.fail(`Helm release ${name} failed`);
        return;
    }
  }
}
