/**
 * `npm run readme`: regenerates the inputs and outputs tables in README.md from action.yml.
 * `npm run readme -- --check`: exits 1 (changing nothing) when README.md is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { updateReadme } from './readme-tables.js';

const readme = readFileSync('README.md', 'utf8');
const updated = updateReadme(readme, readFileSync('action.yml', 'utf8'));

if (process.argv.includes('--check')) {
  if (updated !== readme) {
    console.error('README.md is out of date with action.yml: run `npm run readme`.');
    process.exit(1);
  }
  console.log('README.md is up to date with action.yml.');
} else if (updated !== readme) {
  writeFileSync('README.md', updated);
  console.log('README.md: inputs and outputs tables regenerated from action.yml.');
} else {
  console.log('README.md is already up to date.');
}
