/**
 * The engine's side of its feeds (`TargetFeed`, types.ts): starts each with its context, and keeps what the
 * engine asks of them when it decides: whether one still runs (the wait is not ready then), whether one is
 * mid-read (an early verdict waits for it), a feed's own failure, and the targets they will not judge.
 */
import type { Cluster } from '../kube/index.js';
import type { TargetReport } from '../result.js';
import type { InputProblem } from '../settings.js';
import type { Status } from '../status/types.js';
import type { TargetSpec } from '../targets/types.js';
import type { Deadline, Time } from '../time.js';
import type { FeedContext, TargetFeed, TargetOrigin } from './types.js';

/** What the feeds may ask of the engine. */
export interface FeedHost {
  cluster: Cluster;
  time: Time;
  deadline: Deadline;
  /** The engine's stop signal: the wait is over. */
  signal: AbortSignal;
  add(specs: TargetSpec[], origin?: TargetOrigin): void;
  warn(message: string): void;
  problem(problem: InputProblem): void;
  /** A feed threw: a fatal cluster error, or a bug the engine throws again once everything has stopped. */
  threw(error: unknown): void;
  /** Something the outcome depends on changed. */
  changed(): void;
}

type ChangeListener = (target?: TargetReport, previous?: Status) => void;

export class Feeds {
  private open = 0;
  private busyCount = 0;
  private readonly runs: Array<Promise<void>> = [];
  private readonly besides: Array<Promise<unknown>> = [];
  private readonly listeners: ChangeListener[] = [];
  private readonly unjudged = new Map<TargetFeed, { specs: TargetSpec[]; message: string }>();
  /** A feed's own failure (`FeedContext.fail`), in words. */
  failure?: string;

  constructor(private readonly host: FeedHost) {}

  start(feed: TargetFeed): void {
    this.open++;
    const run = feed
      .run(this.contextFor(feed))
      .catch((error: unknown) => this.host.threw(error))
      .finally(() => {
        this.open--;
        this.host.changed();
      });
    this.runs.push(run);
  }

  /** Whether a feed may still add targets. */
  get running(): boolean {
    return this.open > 0;
  }

  /** Whether a feed is in the middle of work an early verdict waits for. */
  get busy(): boolean {
    return this.busyCount > 0;
  }

  /** Tells the feeds of a target's change, or (`target` undefined) that every target has reached its goal. */
  tell(target?: TargetReport, previous?: Status): void {
    for (const listener of this.listeners) listener(target, previous);
  }

  /** Resolves once every feed and its work beside the wait has ended (they end on the stop signal). */
  async settled(): Promise<void> {
    await Promise.all([...this.runs, ...this.besides]);
  }

  /** The targets each feed said it will not judge, with why. */
  notJudged(): Array<{ specs: TargetSpec[]; message: string }> {
    return [...this.unjudged.values()];
  }

  private contextFor(feed: TargetFeed): FeedContext {
    const { host } = this;
    return {
      cluster: host.cluster,
      time: host.time,
      deadline: host.deadline,
      signal: host.signal,
      add: (specs, origin) => host.add(specs, origin),
      notJudged: (specs, message) => this.unjudged.set(feed, { specs, message }),
      fail: (why) => {
        this.failure ??= why;
        host.changed();
      },
      problem: (problem) => host.problem(problem),
      warn: (message) => host.warn(message),
      busy: async (work) => {
        this.busyCount++;
        try {
          return await work;
        } finally {
          this.busyCount--;
          host.changed();
        }
      },
      beside: (work) => {
        this.besides.push(work.catch(() => undefined));
      },
      onChange: (listener) => this.listeners.push(listener),
    };
  }
}
