/**
 * The source revision a deploy step shipped (the `revision` input), and whether a GitOps controller's
 * revision field names it. Pure.
 *
 * Users have a revision in one of the forms a workflow offers: `${{ github.sha }}` (40 hex), a short sha,
 * a tag or branch, or Flux's own form `main@sha1:<sha>`. The controllers write theirs in other forms:
 * - Flux source artifacts (Kustomization `lastAppliedRevision`/`lastAttemptedRevision`):
 *   `<branch or tag>@sha1:<sha>`, `sha1:<sha>` for a bare commit, `<tag>@sha256:<digest>` for OCI, and
 *   `<branch>/<sha>` before Flux v2.0;
 * - a HelmRelease's chart version: `1.2.3`, or `1.2.3+<12 hex>` when the chart comes from Git with
 *   `reconcileStrategy: Revision` (the commit) or from an OCIRepository (the digest);
 * - Argo CD `status.sync.revision(s)`: the full commit sha for Git, the chart version for a Helm repository.
 * So a commit matches by sha, whichever side is shorter (at least 7 hex characters, as git abbreviates), and
 * a name (tag, branch, chart version) matches exactly, with or without `refs/heads/` or `refs/tags/`.
 */
import type { WantedRevision } from '../../settings.js';

export type { WantedRevision } from '../../settings.js';

/** A revision as a controller wrote it, split into its parts. */
interface ReportedRevision {
  name?: string;
  sha?: string;
}

/** git abbreviates a commit to at least 7 hex characters; fewer would match unrelated commits. */
export const MIN_SHA_LENGTH = 7;

const HEX = /^[0-9a-f]+$/i;
const SHA = new RegExp(`^[0-9a-f]{${MIN_SHA_LENGTH},64}$`, 'i');
/** Flux's `<name>@<algorithm>:<hex>` or `<algorithm>:<hex>` (source-controller's artifact revision). */
const FLUX_FORM = /^(?:(.*)@)?(sha1|sha256|sha384|sha512|blake3):([^:@]*)$/i;
/** What git refuses in a ref name (git check-ref-format), and whitespace. */
const NOT_A_REF = /[\s~^:?*[\\]|\.\.|@\{|^[-/]|\/$|\.lock$|^@$/;

/** The `revision` input parsed, or a problem in words (for the error that names the input). */
export function parseRevision(text: string): { ok: true; value: WantedRevision } | { ok: false; problem: string } {
  if (text.includes('${{')) return { ok: false, problem: 'it is an unexpanded workflow expression' };
  const flux = FLUX_FORM.exec(text);
  if (flux) {
    const [, name, , digest = ''] = flux;
    if (!HEX.test(digest) || digest.length < MIN_SHA_LENGTH) {
      return { ok: false, problem: `the digest after "${text.slice(0, text.length - digest.length)}" is not ${MIN_SHA_LENGTH} or more hex characters` };
    }
    if (name !== undefined && (name === '' || NOT_A_REF.test(name))) return { ok: false, problem: `"${name}" before "@" is not a branch or tag name` };
    return { ok: true, value: { text, sha: digest.toLowerCase() } };
  }
  if (SHA.test(text)) return { ok: true, value: { text, sha: text.toLowerCase() } };
  if (HEX.test(text) && /\d/.test(text) && /[a-f]/i.test(text)) {
    return { ok: false, problem: `it looks like a commit sha shorter than ${MIN_SHA_LENGTH} hex characters, which could match unrelated commits` };
  }
  if (NOT_A_REF.test(text)) return { ok: false, problem: 'it is neither a commit sha nor a tag or branch name' };
  return { ok: true, value: { text, name: withoutRefPrefix(text) } };
}

/** Whether a revision a controller wrote names the wanted one. An empty reported revision never does. */
export function revisionMatches(wanted: WantedRevision, reported: string): boolean {
  if (reported === '') return false;
  const parts = splitReported(reported);
  if (wanted.sha !== undefined) return parts.sha !== undefined && shaMatches(wanted.sha, parts.sha);
  const name = wanted.name ?? '';
  return withoutRefPrefix(reported) === name || (parts.name !== undefined && withoutRefPrefix(parts.name) === name);
}

/** Whether any of `reported` names the wanted revision (Argo CD's multi-source `revisions`). */
export function anyRevisionMatches(wanted: WantedRevision, reported: readonly string[]): boolean {
  return reported.some((revision) => revisionMatches(wanted, revision));
}

function splitReported(revision: string): ReportedRevision {
  const flux = FLUX_FORM.exec(revision);
  if (flux) {
    const [, name, , digest = ''] = flux;
    return { ...(name ? { name } : {}), ...(HEX.test(digest) ? { sha: digest.toLowerCase() } : {}) };
  }
  if (SHA.test(revision)) return { sha: revision.toLowerCase() };
  // A chart version with the commit or digest as build metadata: `1.2.3+1234567890ab`.
  const plus = revision.lastIndexOf('+');
  if (plus > 0 && SHA.test(revision.slice(plus + 1))) return { name: revision.slice(0, plus), sha: revision.slice(plus + 1).toLowerCase() };
  // Flux v1 and early v2: `main/<sha>`.
  const slash = revision.lastIndexOf('/');
  if (slash > 0 && /^[0-9a-f]{40}$/i.test(revision.slice(slash + 1))) return { name: revision.slice(0, slash), sha: revision.slice(slash + 1).toLowerCase() };
  return { name: revision };
}

/** One sha is a prefix of the other, and the shorter has at least 7 characters. */
function shaMatches(a: string, b: string): boolean {
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  return shorter.length >= MIN_SHA_LENGTH && longer.startsWith(shorter);
}

function withoutRefPrefix(name: string): string {
  return name.replace(/^refs\/(heads|tags)\//, '');
}
