/**
 * Jest runs the TypeScript sources as native ES modules (client-node 2 and @actions/* are ESM-only).
 *
 * `npm test` is the everyday loop; `npm run test:all` (what .ci/run runs) adds the suites that build or
 * start something big: the real control plane (test/real/: kube-apiserver, etcd, real controllers), the
 * single executable (a 120 MB build) and the packed npm package installed offline.
 */
import { availableParallelism } from 'node:os';
import process from 'node:process';

const everything = process.env.KUBEWAIT_TEST_ALL === '1';
const ONLY_IN_TEST_ALL = ['<rootDir>/test/real/', '<rootDir>/test/e2e/sea.e2e.test.ts', '<rootDir>/test/e2e/package.e2e.test.ts'];

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
  testPathIgnorePatterns: everything ? ['/node_modules/'] : ['/node_modules/', ...ONLY_IN_TEST_ALL],
  testTimeout: 60000,
  // Most suites spend their time waiting on child processes, servers and deadlines rather than computing:
  // measured on 2 cores, six workers keep 1.2 cores busy and end in 108 s (sum of files 630 s). test:all
  // starts control planes and builds the single executable beside them, so it keeps to two per core.
  maxWorkers: Number(process.env.KUBEWAIT_JEST_WORKERS) || (everything ? 2 : 3) * availableParallelism(),
};
