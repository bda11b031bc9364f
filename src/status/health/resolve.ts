/**
 * Which rule judges an object (Flux's status reader, plus the built-in library): match by API group
 * only (the version is ignored); a rule naming the kind beats a group-only rule; any user rule beats
 * any built-in rule; among built-ins, an exact group beats a `*.group` wildcard. No rule: kstatus.
 */
import { builtinRules } from './builtin.js';
import type { HealthRule, ResolvedRules } from './types.js';

export interface ResolveOptions {
  /** The user's `health-checks`, already free of duplicates (load.ts reports those as input problems). */
  user: HealthRule[];
  /** `builtin-health-checks`: whether the built-in library is consulted. */
  builtin: boolean;
}

export function resolveRules({ user, builtin }: ResolveOptions): ResolvedRules {
  const userTier = index(user);
  // The built-in rules are parsed (about 30 ms of CEL) only when a type could have one: every built-in rule
  // is for a group with a dot, so a run of Deployments and Services never pays for them.
  let builtinTier: Tier | undefined;
  const cache = new Map<string, HealthRule | undefined>();
  return {
    ruleFor(apiVersion, kind) {
      const group = groupOfApiVersion(apiVersion);
      const key = `${group}/${kind}`;
      if (cache.has(key)) return cache.get(key);
      if (builtin && group.includes('.')) builtinTier ??= index(builtinRules());
      let found: HealthRule | undefined;
      for (const tier of builtinTier ? [userTier, builtinTier] : [userTier]) {
        found = tier.exact.get(key) ?? tier.exact.get(`${group}/`) ?? wildcard(tier.wildcards, group, kind);
        if (found) break;
      }
      cache.set(key, found);
      return found;
    },
  };
}

interface Tier {
  /** `group/kind` and `group/` (group-only) -> rule. */
  exact: Map<string, HealthRule>;
  wildcards: HealthRule[];
}

function index(rules: HealthRule[]): Tier {
  const exact = new Map<string, HealthRule>();
  const wildcards: HealthRule[] = [];
  for (const rule of rules) {
    if (rule.group.startsWith('*.')) wildcards.push(rule);
    else if (!exact.has(`${rule.group}/${rule.kind ?? ''}`)) exact.set(`${rule.group}/${rule.kind ?? ''}`, rule);
  }
  return { exact, wildcards };
}

function wildcard(rules: HealthRule[], group: string, kind: string): HealthRule | undefined {
  const matching = rules.filter((rule) => group.endsWith(rule.group.slice(1)));
  return matching.find((rule) => rule.kind === kind) ?? matching.find((rule) => rule.kind === undefined);
}

/** The group of an object's apiVersion ("" for the core group `v1`). */
export function groupOfApiVersion(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}
