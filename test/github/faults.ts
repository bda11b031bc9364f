/**
 * GitHub's error answers, exactly as the REST API sends them, and the rules that make the stand-in
 * answer with one of them instead of the real thing.
 */

/** A response the stand-in sends as is: status, extra headers, JSON body. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

const DOCS = 'https://docs.github.com/rest';

/** What GitHub answers an installation token (GITHUB_TOKEN) that lacks a permission, e.g. on a fork's pull_request. */
export function notAccessible(documentationUrl = DOCS): Answer {
  return { status: 403, body: { message: 'Resource not accessible by integration', documentation_url: documentationUrl, status: '403' } };
}

export function notFound(): Answer {
  return { status: 404, body: { message: 'Not Found', documentation_url: DOCS, status: '404' } };
}

export function badCredentials(): Answer {
  return { status: 401, body: { message: 'Bad credentials', documentation_url: DOCS, status: '401' } };
}

export interface FieldError {
  resource: string;
  code: string;
  field?: string;
  message?: string;
}

export function validationFailed(errors: FieldError[], documentationUrl = DOCS): Answer {
  return { status: 422, body: { message: 'Validation Failed', errors, documentation_url: documentationUrl, status: '422' } };
}

export function serverError(status: 500 | 502 | 503 | 504 = 500): Answer {
  // GitHub's 5xx bodies vary by layer; the API's own is this one.
  return { status, body: { message: status === 500 ? 'Server Error' : 'Service Unavailable', status: String(status) } };
}

/** Primary rate limit: 403 (or 429) with `x-ratelimit-remaining: 0` and the reset time. */
export function primaryRateLimit(status: 403 | 429, resetEpochSeconds: number): Answer {
  return {
    status,
    headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(resetEpochSeconds) },
    body: {
      message: 'API rate limit exceeded for installation ID 4242.',
      documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
      status: String(status),
    },
  };
}

/** Secondary rate limit: 403 (or 429) with `retry-after`. */
export function secondaryRateLimit(status: 403 | 429, retryAfterSeconds: number): Answer {
  return {
    status,
    headers: { 'retry-after': String(retryAfterSeconds) },
    body: {
      message:
        'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 0000:1111:2222:3333.',
      documentation_url: 'https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
      status: String(status),
    },
  };
}

/** What a rule makes the stand-in do instead of answering normally. */
export type Fault =
  | { kind: 'status'; status: 403 | 404 | 422 | 500 | 502 | 503 }
  | { kind: 'rate-limit'; status: 403 | 429; retryAfterSeconds?: number }
  /** Accept the request and never answer (until the stand-in closes): for client timeouts. */
  | { kind: 'hang' };

/** Route patterns look like `POST /repos/{owner}/{repo}/issues/{issue_number}/comments`, as in GitHub's docs. */
interface Rule {
  fault: Fault;
  route?: string;
  /** Requests left to fail; Infinity for "until cleared". */
  remaining: number;
}

export class Faults {
  private rules: Rule[] = [];

  /** Every request to `route` fails this way (`times` of them, or until `clear()`). */
  failRoute(route: string, fault: Fault, times = Infinity): void {
    this.rules.push({ fault, route, remaining: times });
  }

  /** The next `count` requests, whatever their route, fail this way. */
  failNext(count: number, fault: Fault): void {
    this.rules.push({ fault, remaining: count });
  }

  clear(): void {
    this.rules = [];
  }

  /** The fault for this request, if a rule claims it (and counts it). */
  take(route: string): Fault | undefined {
    const rule = this.rules.find((r) => r.remaining > 0 && (r.route === undefined || r.route === route));
    if (!rule) return undefined;
    rule.remaining -= 1;
    return rule.fault;
  }
}

/** The answer GitHub gives for an injected fault. */
export function faultAnswer(fault: Exclude<Fault, { kind: 'hang' }>, nowMs: number): Answer {
  if (fault.kind === 'rate-limit') {
    return fault.retryAfterSeconds === undefined
      ? primaryRateLimit(fault.status, Math.ceil(nowMs / 1000) + 3600)
      : secondaryRateLimit(fault.status, fault.retryAfterSeconds);
  }
  switch (fault.status) {
    case 403:
      return notAccessible();
    case 404:
      return notFound();
    case 422:
      return validationFailed([{ resource: 'Issue', code: 'custom', message: 'injected validation failure' }]);
    default:
      return serverError(fault.status);
  }
}
