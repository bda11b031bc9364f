/**
 * `npm run inputs`: writes src/action-inputs.ts from action.yml, so the inputs' names, order and defaults
 * are written once, in the public contract, and the code asks there (`INPUT_DEFAULTS` in settings.ts, the
 * command's flag table in cli/flags.ts, which the compiler then holds to one flag per input).
 * test/inputs/generated.test.ts fails when the two differ.
 *
 * A default that is a workflow expression (`${{ github.token }}`) is the runner's to evaluate: it is
 * listed as no default, as the runner passes '' where it knows no such context.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const ACTION_FILE = fileURLToPath(new URL('../action.yml', import.meta.url));
export const GENERATED_FILE = fileURLToPath(new URL('../src/action-inputs.ts', import.meta.url));

/** The TypeScript source for the inputs of `actionYaml`, in Prettier's layout (lint accepts it as it is). */
export function inputsSource(actionYaml: string): string {
  const inputs = (parse(actionYaml) as { inputs: Record<string, { default?: string | number | boolean }> }).inputs;
  const names = Object.keys(inputs);
  const defaults = Object.entries(inputs)
    .map(([name, input]) => [name, input.default === undefined ? '' : String(input.default)] as const)
    .filter(([, value]) => value !== '' && !value.includes('${{'));
  const key = (name: string) => (/^[a-z]+$/.test(name) ? name : `'${name}'`);
  return [
    '/** Generated from action.yml by `npm run inputs`; do not edit (a test checks it matches). */',
    '',
    '/** Every input of action.yml, in its order. */',
    'export const INPUT_NAMES = [',
    ...names.map((name) => `  '${name}',`),
    '] as const;',
    '',
    'export type InputName = (typeof INPUT_NAMES)[number];',
    '',
    "/** The defaults of action.yml that are values (an expression default is the runner's to evaluate). */",
    'export const INPUT_DEFAULTS = {',
    ...defaults.map(([name, value]) => `  ${key(name)}: ${JSON.stringify(value).replace(/^"(.*)"$/, "'$1'")},`),
    '} as const satisfies Partial<Record<InputName, string>>;',
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(GENERATED_FILE, inputsSource(readFileSync(ACTION_FILE, 'utf8')));
  console.log('src/action-inputs.ts: regenerated from action.yml');
}
