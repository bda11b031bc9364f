/**
 * The Helm release wing: everything kubewait knows about Helm, in one place. The `release` input names a
 * release; the pipeline runs this wing as a feed of the wait (engine/types.ts `TargetFeed`), which
 *
 * | step | module | what it does |
 * |---|---|---|
 * | read | `read.ts` | lists the release's records the way Helm's storage does (Secrets, then ConfigMaps, by `owner=helm,name=NAME`) through kube/'s generic label LIST |
 * | decode | `decode.ts` | pure: a record -> the release (revision, status, chart) and its manifest's objects as targets whose source is the release; never keeps the values |
 * | policy | `policy.ts` | pure: the release's status -> wait, poll again, fail, wait for deletion, or an input error |
 * | follow | `follow.ts` | reads and decides every poll interval until the decision settles or the deadline comes |
 * | feed | `feed.ts` | beside the wait for the other targets: adds the settled release's objects to it (for deletion, when uninstalling), or fails it with Helm's words; the release goes into the result for the report |
 *
 * The wing reads time from the run's `time` (the feed context's), and says what it decides through the `say` the pipeline
 * passes (the live log): it never writes to stdout and never uses `@actions/core`. kube/ and targets/ know
 * nothing of Helm; a target from a release's manifest carries a source of kind `release` (settings.ts
 * `TargetSource`), which the report asks instead of parsing a name. docs/helm-release.md is the user's view.
 */
export { ReleaseFeed, type ReleaseFeedSettings } from './feed.js';
