/** `Status` bodies exactly as a real API server writes them for failed requests. */
import { qualifiedResource, type ResourceType } from './registry.js';

export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: string;
  details?: { name?: string; group?: string; kind?: string; causes?: object[]; retryAfterSeconds?: number };
  code: number;
}

/** An error that the HTTP layer turns into a Status response (and in-process callers see as a throw). */
export class ApiError extends Error {
  constructor(
    readonly status: StatusBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(status.message);
  }
  get code(): number {
    return this.status.code;
  }
}

function body(code: number, reason: string, message: string, details?: StatusBody['details']): StatusBody {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code };
}

type TypeRef = Pick<ResourceType, 'group' | 'plural'>;

function details(t: TypeRef, name?: string): StatusBody['details'] {
  return { ...(name !== undefined ? { name } : {}), ...(t.group ? { group: t.group } : {}), kind: t.plural };
}

export const errors = {
  notFound: (t: TypeRef, name: string) => new ApiError(body(404, 'NotFound', `${qualifiedResource(t)} "${name}" not found`, details(t, name))),
  /** Unknown path: what a real server answers for a resource it does not serve. */
  noSuchPath: () => new ApiError(body(404, 'NotFound', 'the server could not find the requested resource', {})),
  alreadyExists: (t: TypeRef, name: string) => new ApiError(body(409, 'AlreadyExists', `${qualifiedResource(t)} "${name}" already exists`, details(t, name))),
  conflict: (t: TypeRef, name: string) =>
    new ApiError(
      body(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${qualifiedResource(t)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        details(t, name),
      ),
    ),
  invalid: (kind: string, group: string, name: string, causes: Array<{ field: string; message: string; reason?: string }>) =>
    new ApiError(
      body(422, 'Invalid', `${group ? `${kind}.${group}` : kind} "${name}" is invalid: ${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}`, {
        name,
        ...(group ? { group } : {}),
        kind,
        causes: causes.map((c) => ({ reason: c.reason ?? 'FieldValueInvalid', message: c.message, field: c.field })),
      }),
    ),
  badRequest: (message: string) => new ApiError(body(400, 'BadRequest', message)),
  methodNotAllowed: () => new ApiError(body(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {})),
  unsupportedMediaType: (_type: string) =>
    new ApiError(
      body(
        415,
        'UnsupportedMediaType',
        `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`,
        {},
      ),
    ),
  /** A create/update body in a format (or of a type) the stand-in cannot decode. */
  unsupportedBody: (message: string) => new ApiError(body(415, 'UnsupportedMediaType', message, {})),
  unauthorized: () => new ApiError(body(401, 'Unauthorized', 'Unauthorized')),
  forbidden: (user: string, verb: string, t: TypeRef, resource: string, namespace: string | undefined, name?: string) =>
    new ApiError(
      body(
        403,
        'Forbidden',
        `${qualifiedResource(t)}${name !== undefined ? ` "${name}"` : ''} is forbidden: User "${user}" cannot ${verb} resource "${resource}" in API group "${t.group}" ${namespace ? `in the namespace "${namespace}"` : 'at the cluster scope'}`,
        details(t, name),
      ),
    ),
  expired: (requested: number, oldest: number) => new ApiError(body(410, 'Expired', `too old resource version: ${requested} (${oldest})`)),
  internal: (message: string) => new ApiError(body(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] })),
  tooManyRequests: (retryAfterSeconds: number) =>
    new ApiError(body(429, 'TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds }), {
      'Retry-After': String(retryAfterSeconds),
    }),
  unavailable: (retryAfterSeconds?: number) =>
    new ApiError(
      body(503, 'ServiceUnavailable', 'The server is currently unable to handle the request', retryAfterSeconds ? { retryAfterSeconds } : {}),
      retryAfterSeconds ? { 'Retry-After': String(retryAfterSeconds) } : {},
    ),
};
