/**
 * The one line of a container log that says why it failed, and the annotation text built from it
 * (`exit 1: panic: missing DATABASE_URL`). Pure.
 *
 * Programs end their output in predictable ways: Go with `panic: ...` then a goroutine dump, Java with an
 * exception then `\tat` frames (`Caused by:` the root), Python with a traceback ending in `ValueError: ...`,
 * Node.js with the source line, a caret, `Error: ...`, `    at` frames and `Node.js v22`. So: drop stack
 * frames and noise, then prefer the last line that names a panic, fatal error or exception, else the last one
 * that says error or failed, else the last line left.
 */

/** How far back from the end to look (the explaining line is near the end). */
const SCAN_LINES = 60;
const MAX_LINE_CHARS = 300;

// eslint-disable-next-line no-control-regex -- terminal colour codes are control characters by definition
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[@-_]/g;
// eslint-disable-next-line no-control-regex -- the other control characters a terminal would act on
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** Lines that never explain: stack frames, dump headers, bare punctuation, runtime banners. */
const NOISE: RegExp[] = [
  /^\s*$/,
  /^\s+at\s/, // Java `\tat com.x.Y(Y.java:3)`, Node.js `    at f (/app/x.js:1:2)`
  /^\s*\.\.\. \d+ (more|common frames omitted)/, // Java
  /^goroutine \d+ \[[^\]]*\]:?$/, // Go dump header
  /^\s*[\w./*()-]+\([^)]*\)$/, // Go frame `main.main()`, `main.mustEnv(...)`
  /^\s+\/.+:\d+( \+0x[0-9a-f]+)?$/, // Go frame location `\t/app/main.go:42 +0x1d`
  /^\s*File ".+", line \d+/, // Python frame
  /^\s*[\])}]+[;,]?$/, // closing braces of a pretty-printed object
  /^\s*\^+\s*$/, // Node.js caret under the source line
  /^Node\.js v\d+/, // Node.js banner after an uncaught error
  /^exit status \d+$/, // `go run` epilogue
  /^\[recovered\]$/,
];

const STRONG = [
  /^(panic|fatal error|fatal)\b[:!]/i,
  /\bpanic:/,
  /^Caused by:/,
  /^Exception in thread /,
  /^(\w+\.)*\w*(Error|Exception)\b(:|$)/, // ValueError: x, java.lang.IllegalStateException: x, Error: x
  /\b(FATAL|CRITICAL)\b/,
  /"level":\s*"(fatal|panic|critical)"/i,
  /\blevel=(fatal|panic|critical)\b/i,
];
const WEAK = [/\b(error|err|failed|failure|exception)\b/i, /\bERR\b/];

/** The line of `text` that best says why the program stopped, or '' when there is none. */
export function lastMeaningfulLine(text: string): string {
  const lines = text.replace(ANSI, '').split(/\r?\n/).slice(-SCAN_LINES);
  const candidates = lines.map(clean).filter((line) => !NOISE.some((re) => re.test(line)));
  const pick = lastMatching(candidates, STRONG) ?? lastMatching(candidates, WEAK) ?? candidates.at(-1) ?? '';
  return shorten(pick.trim());
}

function clean(line: string): string {
  return line.replace(CONTROL, '').replace(/\s+$/, '');
}

function lastMatching(lines: string[], patterns: RegExp[]): string | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (patterns.some((re) => re.test(line))) return line;
  }
  return undefined;
}

function shorten(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  const cut = line.lastIndexOf(' ', MAX_LINE_CHARS - 1);
  return `${line.slice(0, cut > MAX_LINE_CHARS / 2 ? cut : MAX_LINE_CHARS - 1)}…`;
}

/** What the annotation of a failing container says, from what is known about it. */
export interface ContainerOutcome {
  /** The waiting reason or termination reason (see ContainerToExplain.reason). */
  reason: string;
  exitCode?: number;
  terminationReason?: string;
  /** Set when the container never started: the waiting reason and message. */
  noLogs?: string;
}

/**
 * `exit 1: panic: missing DATABASE_URL`, `exit 137 (OOMKilled)`, `ImagePullBackOff: Back-off pulling image "x"`:
 * the exit code (with its reason unless it is the generic `Error`) and the log's meaningful line; or why the
 * container has no log.
 */
export function annotationSummary(container: ContainerOutcome, logLine = ''): string {
  if (container.noLogs) return container.noLogs;
  const line = logLine.trim();
  if (container.exitCode !== undefined) {
    const why = container.terminationReason && container.terminationReason !== 'Error' ? ` (${container.terminationReason})` : '';
    return `exit ${container.exitCode}${why}${line ? `: ${line}` : ''}`;
  }
  return line ? `${container.reason}: ${line}` : container.reason;
}
