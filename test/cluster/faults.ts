/** Fault injection and request counters: the test-facing levers and gauges of the stand-in. */
import type { ServerResponse } from 'node:http';
import { errors, type ApiError } from './errors.js';

export interface RequestRecord {
  verb: string;
  resource: string;
  namespace?: string;
  status: number;
}

export interface OpenWatch {
  resource: string;
  close(): void;
}

interface FailRule {
  remaining: number;
  status: 500 | 429 | 503;
  retryAfterSeconds?: number;
  verb?: string;
  resource?: string;
}
interface GoneRule {
  remaining: number;
  resource?: string;
}

export class Faults {
  private readonly failRules: FailRule[] = [];
  private readonly goneRules: GoneRule[] = [];
  private latencyMs = 0;
  /** Extra latency of one verb on one resource (`list deployments`): one type's LIST answering later than another's. */
  private readonly slowRequests = new Map<string, number>();
  private unavailableUntil = 0;
  private refusingUntil = 0;
  readonly watches = new Set<OpenWatch>();

  closeWatches(filter: { resource?: string } = {}): void {
    for (const w of [...this.watches]) if (!filter.resource || filter.resource === w.resource) w.close();
  }

  failNext(count: number, opts: { status: 500 | 429 | 503; retryAfterSeconds?: number; verb?: string; resource?: string }): void {
    this.failRules.push({ remaining: count, ...opts });
  }

  goneOnNextWatch(opts: { resource?: string; count?: number } = {}): void {
    this.goneRules.push({ remaining: opts.count ?? 1, resource: opts.resource });
  }

  latency(ms: number): void {
    this.latencyMs = Math.max(0, ms);
  }

  /** Every `verb` request on `resource` (plural) is answered `ms` later (0: no longer slowed). */
  slow(verb: string, resource: string, ms: number): void {
    if (ms > 0) this.slowRequests.set(`${verb} ${resource}`, ms);
    else this.slowRequests.delete(`${verb} ${resource}`);
  }

  /** Waits out the extra latency of this verb on this resource, if `slow` set one. */
  async delayRequest(verb: string, resource: string): Promise<void> {
    const ms = this.slowRequests.get(`${verb} ${resource}`) ?? 0;
    if (ms > 0) await sleep(ms);
  }

  /** Requests arriving in the next `ms` are held until it ends; open watches are dropped at once, as
   *  when a real API server restarts. */
  unavailable(ms: number): void {
    this.unavailableUntil = Date.now() + ms;
    this.closeWatches();
  }

  /** For the next `ms`, every connection is dropped as soon as it is accepted (and open ones at once), as
   *  when the API server process is down: clients see ECONNRESET/refused, not a slow answer. */
  refuse(ms: number): void {
    this.refusingUntil = Date.now() + ms;
    this.closeWatches();
  }

  /** Whether a new connection is to be dropped now. */
  refusing(): boolean {
    return Date.now() < this.refusingUntil;
  }

  /** Waits out unavailability and latency before a request is served. */
  async delay(): Promise<void> {
    const stall = this.unavailableUntil - Date.now();
    if (stall > 0) await sleep(stall);
    if (this.latencyMs > 0) await sleep(this.latencyMs);
  }

  /** The injected error for this request, if a rule matches (consuming one of its count).
   *  Discovery requests only match rules that ask for verb `discovery`. */
  injectedError(verb: string, resource: string): ApiError | undefined {
    const rule = this.failRules.find((r) => r.remaining > 0 && (r.verb ? r.verb === verb : verb !== 'discovery') && (!r.resource || r.resource === resource));
    if (!rule) return undefined;
    rule.remaining--;
    if (rule.status === 429) return errors.tooManyRequests(rule.retryAfterSeconds ?? 1);
    if (rule.status === 503) return errors.unavailable(rule.retryAfterSeconds);
    return errors.internal('injected fault');
  }

  takeGone(resource: string): boolean {
    const rule = this.goneRules.find((r) => r.remaining > 0 && (!r.resource || r.resource === resource));
    if (!rule) return false;
    rule.remaining--;
    return true;
  }
}

/** Whether the stand-in is at rest: what virtual-time tests wait for before they move the clock. */
export interface Activity {
  /** Grows with every connection, request, byte sent and response ended: unchanged over a pause, nothing happened. */
  changes: number;
  /** Requests being answered (held by a fault, or not answered yet); an open watch counts once its headers are sent. */
  serving: number;
}

export class Counters {
  private records: RequestRecord[] = [];
  private bytes = 0;
  private changes = 0;
  private readonly unanswered = new Set<ServerResponse>();

  constructor(private readonly faults: Faults) {}

  /** A connection was accepted (or anything else happened that a client may answer). */
  touched(): void {
    this.changes++;
  }

  /** A request arrived; it is being served until its headers are sent or it is closed. */
  arrived(res: ServerResponse): void {
    this.changes++;
    this.unanswered.add(res);
    res.once('close', () => {
      this.unanswered.delete(res);
      this.changes++;
    });
  }

  activity(): Activity {
    let serving = 0;
    for (const res of this.unanswered) if (!res.headersSent) serving++;
    return { changes: this.changes, serving };
  }

  record(r: RequestRecord): RequestRecord {
    this.records.push(r);
    return r;
  }

  addBytes(n: number): void {
    this.bytes += n;
    this.changes++;
  }

  requests(): RequestRecord[] {
    return this.records.map((r) => ({ ...r }));
  }

  byVerb(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const r of this.records) out[r.verb] = (out[r.verb] ?? 0) + 1;
    return out;
  }

  openWatches(): number {
    return this.faults.watches.size;
  }

  bytesSent(): number {
    return this.bytes;
  }

  reset(): void {
    this.records = [];
    this.bytes = 0;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
