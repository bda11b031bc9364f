/** Bearer-token authentication and RBAC-like authorization. */

export interface AccessRule {
  verbs: string[];
  resources: string[];
  apiGroups?: string[];
  namespaces?: string[];
}

export interface Attributes {
  verb: string;
  group: string;
  /** Plural, with `/status` for the subresource. */
  resource: string;
  /** Undefined for cluster-scoped objects and all-namespaces requests. */
  namespace?: string;
}

const wildcardOr = (list: string[] | undefined, value: string): boolean => list === undefined || list.includes('*') || list.includes(value);

export function allows(rules: AccessRule[], a: Attributes): boolean {
  return rules.some(
    (r) =>
      wildcardOr(r.verbs, a.verb) &&
      wildcardOr(r.resources, a.resource) &&
      wildcardOr(r.apiGroups, a.group) &&
      // A namespace-restricted rule (like a RoleBinding) never grants cluster-wide or cluster-scoped access.
      (r.namespaces === undefined || (a.namespace !== undefined && r.namespaces.includes(a.namespace))),
  );
}

export const ADMIN: AccessRule[] = [{ verbs: ['*'], resources: ['*'], apiGroups: ['*'] }];

export class Authorizer {
  private readonly tokens = new Map<string, AccessRule[]>();

  constructor(extra: Record<string, AccessRule[]> = {}) {
    this.tokens.set('admin', ADMIN);
    for (const [token, rules] of Object.entries(extra)) this.tokens.set(token, rules);
  }

  /** The user name for a bearer token (the token itself, as the test kubeconfigs use readable tokens). */
  authenticate(authorization: string | undefined): string | undefined {
    const m = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
    if (!m?.[1]) return undefined;
    return this.tokens.has(m[1].trim()) ? m[1].trim() : undefined;
  }

  authorize(user: string, a: Attributes): boolean {
    return allows(this.tokens.get(user) ?? [], a);
  }

  setRules(token: string, rules: AccessRule[]): void {
    this.tokens.set(token, rules);
  }
}
