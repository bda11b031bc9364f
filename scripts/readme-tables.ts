/**
 * The README's inputs and outputs tables, generated from action.yml so the two never disagree.
 * Pure: action.yml text + README text in, README text out. `scripts/readme.ts` is the CLI.
 */
import { parse } from 'yaml';

interface ActionInput {
  description?: string;
  required?: boolean;
  default?: string | number | boolean;
}

interface ActionManifest {
  inputs?: Record<string, ActionInput>;
  outputs?: Record<string, { description?: string }>;
}

export const MARKERS = {
  inputs: ['<!-- inputs:start (generated from action.yml by `npm run readme`) -->', '<!-- inputs:end -->'],
  outputs: ['<!-- outputs:start (generated from action.yml by `npm run readme`) -->', '<!-- outputs:end -->'],
} as const;

/** One line of table text: folded descriptions joined, pipes escaped. */
function tableText(text: string | undefined): string {
  return (text ?? '')
    .replace(/\s*\n\s*/g, ' ')
    .trim()
    .replace(/\|/g, '\\|');
}

function defaultCell(value: ActionInput['default']): string {
  if (value === undefined || value === '') return '_empty_';
  return `\`${String(value)}\``;
}

export function inputsTable(manifest: ActionManifest): string {
  const rows = Object.entries(manifest.inputs ?? {}).map(
    ([name, input]) => `| \`${name}\` | ${defaultCell(input.default)} | ${tableText(input.description)} |`,
  );
  return ['| Input | Default | Description |', '| --- | --- | --- |', ...rows].join('\n');
}

export function outputsTable(manifest: ActionManifest): string {
  const rows = Object.entries(manifest.outputs ?? {}).map(([name, output]) => `| \`${name}\` | ${tableText(output.description)} |`);
  return ['| Output | Description |', '| --- | --- |', ...rows].join('\n');
}

function replaceBetween(text: string, [start, end]: readonly [string, string], content: string): string {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to === -1 || to < from) {
    throw new Error(`README.md has no "${start}" ... "${end}" block to fill in`);
  }
  return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}

/** The README with both generated tables brought up to date with `actionYml`. */
export function updateReadme(readme: string, actionYml: string): string {
  const manifest = parse(actionYml) as ActionManifest;
  const withInputs = replaceBetween(readme, MARKERS.inputs, inputsTable(manifest));
  return replaceBetween(withInputs, MARKERS.outputs, outputsTable(manifest));
}
