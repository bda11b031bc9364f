/**
 * The JSON schema @actions/workflow-parser imports without an import attribute, which Jest warns about on
 * every run (mapped here in jest.config.js). Read through require, it is the same JSON without the warning.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export default require('../../node_modules/@actions/workflow-parser/dist/workflow-v1.0.min.json') as unknown;
