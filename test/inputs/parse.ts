/** The action's input parser as the runner drives it, for the input tests. */
import { parseSettings } from '../../src/inputs.js';
import { InputError, type Settings } from '../../src/settings.js';

/** Inputs as the runner passes them; anything unset reads as ''. */
export function settingsFrom(inputs: Record<string, string>): Settings {
  return parseSettings((name) => inputs[name] ?? '');
}

/** The `InputError` the inputs give; throws when they give none. */
export function inputErrorFrom(inputs: Record<string, string>): InputError {
  try {
    settingsFrom(inputs);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error(`no InputError for ${JSON.stringify(inputs)}`);
}
