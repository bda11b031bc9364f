/**
 * Errors of the Kubernetes layer, each carrying a short user-facing message. client-node's own errors
 * (ApiException, undici's `fetch failed`) are long, multi-line or vague; nothing of them reaches a user
 * except through `describeFailure`.
 */
import { InputError } from '../settings.js';

/** A failed request to the API server. `status` 0 means no HTTP response (network, TLS, timeout). */
export class ApiError extends Error {
  readonly status: number;
  /** The Status body's `reason` (`Forbidden`, `NotFound`, `Expired`, ...) when the server sent one. */
  readonly reason?: string;
  /** From a Retry-After header (429/503). */
  readonly retryAfterMs?: number;
  constructor(status: number, message: string, reason?: string, retryAfterMs?: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.reason = reason;
    this.retryAfterMs = retryAfterMs;
  }
}

/** A Kubernetes `Status` object as sent in error bodies and watch ERROR events. */
export interface StatusBody {
  kind?: string;
  message?: string;
  reason?: string;
  code?: number;
}

export function isStatusBody(value: unknown): value is StatusBody {
  return typeof value === 'object' && value !== null && (value as StatusBody).kind === 'Status';
}

const REASON_BY_STATUS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** One line describing an HTTP error response, from its Status body when there is one. */
export function httpErrorMessage(status: number, body: unknown): string {
  const text = REASON_BY_STATUS[status] ?? 'HTTP error';
  const detail = isStatusBody(body) && body.message ? `: ${firstLine(body.message)}` : '';
  if (status === 401) return `the API server rejected the credentials (401 Unauthorized)${detail}`;
  return `${status} ${text}${detail}`;
}

/**
 * An error response, or a watch `ERROR` event, as an ApiError: the reason from the Status body when
 * there is one, the message one short line.
 */
export function statusError(status: number, body: unknown, retryAfterMs?: number): ApiError {
  const reason = isStatusBody(body) && body.reason ? body.reason : REASON_BY_CODE[status];
  return new ApiError(status, httpErrorMessage(status, body), reason, retryAfterMs);
}

const REASON_BY_CODE: Record<number, string> = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 410: 'Gone', 429: 'TooManyRequests' };

/** Seconds or HTTP-date of a Retry-After header, in ms. */
export function parseRetryAfter(header: string | undefined | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const TLS_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * A request that failed without an HTTP response, as an ApiError whose reason says what can heal:
 * `TLS` (the certificate will not change: fatal), `Unreachable` (may come back), `Timeout`.
 */
export function networkError(error: unknown, server: string): ApiError {
  const code = innermostCause(error)?.code;
  const reason = typeof code === 'string' && isTlsCode(code) ? 'TLS' : 'Unreachable';
  return new ApiError(0, networkErrorMessage(error, server), reason);
}

function isTlsCode(code: string): boolean {
  return TLS_CODES.has(code) || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_') || code.startsWith('ERR_OSSL_') || code.startsWith('CERT_');
}

/**
 * Errors no retry can heal: the credentials were rejected (401), they cannot be produced (exec plugin,
 * client key), or the server's certificate is not trusted. The wait ends at once with `result: error`.
 */
export function isFatal(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.reason === 'Credentials' || error.reason === 'TLS');
}

/** No answer at all (refused, DNS, timeout): the cluster may still come up, for a while. */
export function isUnreachable(error: unknown): boolean {
  return error instanceof ApiError && error.status === 0 && error.reason === 'Unreachable';
}

/**
 * One line for an error that came without an HTTP response: undici wraps the socket error in
 * `TypeError: fetch failed` with the useful part in `cause`.
 */
export function networkErrorMessage(error: unknown, server: string): string {
  const cause = innermostCause(error);
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  // By shape, not instanceof: an AbortSignal's TimeoutError is a DOMException, of another realm under jest.
  const name = typeof (error as { name?: unknown } | undefined)?.name === 'string' ? (error as { name: string }).name : '';
  if (name === 'TimeoutError' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return `the API server at ${server} did not answer in time`;
  }
  if (code && isTlsCode(code)) {
    return `TLS verification of the API server at ${server} failed (${code}): check certificate-authority-data, or set insecure-skip-tls-verify for a test cluster`;
  }
  const what = code ?? (cause?.message ? firstLine(typeof cause.message === 'string' ? cause.message : String(error)) : firstLine(String(error)));
  return `cannot reach the API server at ${server}: ${what}`;
}

/** Any error thrown by this layer as one short line. */
export function describeFailure(error: unknown, server: string): string {
  if (error instanceof ApiError || error instanceof InputError) return error.message;
  return networkErrorMessage(error, server);
}

function innermostCause(error: unknown): { code?: unknown; message?: unknown } | undefined {
  let current = error as { cause?: unknown } | undefined;
  for (let depth = 0; depth < 5 && current && typeof current === 'object' && current.cause; depth++) {
    current = current.cause;
  }
  return current as { code?: unknown; message?: unknown } | undefined;
}

export function firstLine(text: string, max = 300): string {
  const line = (text.split('\n', 1)[0] ?? '').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
