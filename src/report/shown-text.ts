/**
 * Text as a reader is shown it: what the cluster writes (a controller's revision, a condition's message, an
 * event, a container's log) may carry characters that a screen acts on instead of showing. Terminal escape
 * sequences recolour or rewrite a log; other C0 and C1 control characters (NUL, ESC, a carriage return that
 * rewinds the line) are not text; the bidirectional controls reorder what is shown, so that a revision
 * `abc\u202Efed` reads as another one. Every channel a report reaches is written through `shownText`: the
 * step log, annotations and job summary (core-writer.ts, stream-writer.ts), the pull-request comment and the
 * Deployment status (github/). Newlines and tabs stay: the report's own layout is made of them.
 */

// eslint-disable-next-line no-control-regex -- terminal escape sequences are control characters by definition (CSI as ESC [ or as C1)
const ANSI = /(?:\u001b\[|\u009b)[0-9;?]*[ -/]*[@-~]|\u001b[@-_]/g;
// eslint-disable-next-line no-control-regex -- every other control character a screen would act on: C0 but tab and newline, DEL, C1
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** Marks and embeddings, overrides and isolates: the characters that change the order text is shown in. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` without what a screen would act on rather than show. */
export function shownText(text: string): string {
  return text.replace(ANSI, '').replace(CONTROL, '').replace(BIDI, '');
}
