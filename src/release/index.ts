/**
 * The Helm release wing: everything kubewait knows about Helm, in one place. The `release` input names a
 * release; between connecting and reporting, the pipeline hands the wait to this wing, which
 *
 * | step | module | what it does |
 * |---|---|---|
 * | read | `read.ts` | lists the release's records the way Helm's storage does (Secrets, then ConfigMaps, by `owner=helm,name=NAME`) through kube/'s generic label LIST |
 * | decode | `decode.ts` | pure: a record -> the release (revision, status, chart) and its manifest's objects as targets whose source is the release; never keeps the values |
 * | policy | `policy.ts` | pure: the release's status -> wait, poll again, fail, wait for deletion, or an input error |
 * | follow | `follow.ts` | reads and decides every poll interval until the decision settles or the deadline comes |
 * | wait | `wait.ts` | the engine on the settled release's objects (and the other targets) with what is left of the deadline; the release goes into the result for the report |
 *
 * The wing reads time from the engine options' `time`, and says what it decides through the `say` the pipeline
 * passes (the live log): it never writes to stdout and never uses `@actions/core`. kube/ and targets/ know
 * nothing of Helm; a target from a release's manifest carries a source of kind `release` (settings.ts
 * `TargetSource`), which the report asks instead of parsing a name. docs/helm-release.md is the user's view.
 */
export { waitWithRelease, type ReleaseWaitOptions } from './wait.js';
