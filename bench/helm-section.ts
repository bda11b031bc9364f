/**
 * The "Helm release" section of RESULTS.md is measured by bench/helm.ts, not by run.ts: it lives between
 * markers, helm.ts replaces it, and run.ts carries it over when it regenerates the rest of the file.
 */
export const HELM_SECTION = { begin: '<!-- helm-release:begin -->', end: '<!-- helm-release:end -->' };

/** The marked section of `markdown` (markers included), or undefined. */
export function helmSection(markdown: string): string | undefined {
  const begin = markdown.indexOf(HELM_SECTION.begin);
  const end = markdown.indexOf(HELM_SECTION.end);
  return begin >= 0 && end > begin ? markdown.slice(begin, end + HELM_SECTION.end.length) : undefined;
}

/** `markdown` with its marked section replaced by `section`, or `section` appended. */
export function withHelmSection(markdown: string, section: string | undefined): string {
  if (section === undefined) return markdown;
  const old = helmSection(markdown);
  if (old !== undefined) return markdown.replace(old, () => section);
  return `${markdown.replace(/\n*$/, '')}\n\n${section}\n`;
}
