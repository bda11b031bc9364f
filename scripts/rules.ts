/**
 * `npm run rules`: embeds rules/builtin.yaml (the built-in health rules, kept as YAML so users can read
 * and copy them) into src/status/health/builtin-text.ts, so every way the source runs (the esbuild
 * bundle in dist/, jest, tsx) has the rules without a loader or a file next to the bundle.
 * test/status/health/builtin.test.ts fails when the two differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const RULES_FILE = fileURLToPath(new URL('../rules/builtin.yaml', import.meta.url));
export const EMBEDDED_FILE = fileURLToPath(new URL('../src/status/health/builtin-text.ts', import.meta.url));

/** In Prettier's layout (the string on its own line), so `npm run lint` accepts the generated file as it is. */
export function embeddedSource(yaml: string): string {
  return `/** Generated from rules/builtin.yaml by \`npm run rules\`; do not edit (a test checks it matches). */\nexport const BUILTIN_RULES_YAML =\n  ${JSON.stringify(yaml)};\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(EMBEDDED_FILE, embeddedSource(readFileSync(RULES_FILE, 'utf8')));
  console.log('src/status/health/builtin-text.ts: regenerated from rules/builtin.yaml');
}
