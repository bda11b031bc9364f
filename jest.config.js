/** Jest runs the TypeScript sources as native ES modules (client-node 2 and @actions/* are ESM-only). */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    // @actions/workflow-parser imports its JSON schemas without `with { type: 'json' }`: see test/setup/.
    '^\\.\\./(workflow|action)-v1\\.0\\.min\\.json$': '<rootDir>/test/setup/$1-schema.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  setupFiles: ['<rootDir>/test/setup/runner-debug.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true }],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 60000,
  maxWorkers: 2,
};
