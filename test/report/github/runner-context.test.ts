/** The runner's context read without @actions/github (src/report/github/runner-context.ts): field for field
 *  what @actions/github's own `Context` reads from the same environment and event payload. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { context as actionsContext } from '@actions/github';
import { runnerContext } from '../../../src/report/github/runner-context.js';
import type { ContextSource } from '../../../src/report/github/run-context.js';

/** @actions/github's `Context` class (the package exports only its instance), which reads `process.env` when built. */
const ActionsContext = Object.getPrototypeOf(actionsContext).constructor as new () => ContextSource;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'kubewait-runner-context-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function payloadFile(name: string, payload: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(payload));
  return file;
}

const RUN = {
  GITHUB_EVENT_NAME: 'pull_request',
  GITHUB_SHA: 'f'.repeat(40),
  GITHUB_WORKFLOW: 'deploy',
  GITHUB_JOB: 'verify',
  GITHUB_RUN_ID: '4242',
  GITHUB_RUN_ATTEMPT: '2',
  GITHUB_SERVER_URL: 'https://ghe.example.com',
  GITHUB_API_URL: 'https://ghe.example.com/api/v3',
  GITHUB_REPOSITORY: 'octo-org/shop',
};

/** The fields the reports read, with `repo` as a value or as the error it throws. A variable that is not set is
 *  undefined in @actions/github's and '' here (typed as a string in both); every reader treats them alike. */
function fields(context: ContextSource) {
  let repo: unknown;
  try {
    repo = context.repo;
  } catch (error) {
    repo = (error as Error).message;
  }
  const { runId, runAttempt, serverUrl, apiUrl, payload } = context;
  const text = (value: string | undefined) => value ?? '';
  return {
    eventName: text(context.eventName),
    sha: text(context.sha),
    workflow: text(context.workflow),
    job: text(context.job),
    runId,
    runAttempt,
    serverUrl,
    apiUrl,
    payload,
    repo,
  };
}

describe('runnerContext', () => {
  it.each<[string, () => NodeJS.ProcessEnv]>([
    ['a pull request run with its event payload', () => ({ ...RUN, GITHUB_EVENT_PATH: payloadFile('pr.json', { pull_request: { number: 7 } }) })],
    [
      'no GITHUB_REPOSITORY: the repository from the payload',
      () => ({ GITHUB_EVENT_PATH: payloadFile('push.json', { repository: { owner: { login: 'octo' }, name: 'web' } }) }),
    ],
    ['outside a workflow run: defaults, and repo throws', () => ({})],
    ['an event payload path that does not exist', () => ({ ...RUN, GITHUB_EVENT_PATH: path.join(dir, 'missing.json') })],
  ])('%s: reads what @actions/github reads', (_name, makeEnv) => {
    const env = makeEnv();
    const saved = process.env;
    process.env = env;
    let expected: ReturnType<typeof fields>;
    const write = process.stdout.write.bind(process.stdout);
    try {
      // @actions/github says on stdout that a payload file is missing; the comparison is about the values.
      process.stdout.write = () => true;
      expected = fields(new ActionsContext());
    } finally {
      process.stdout.write = write;
      process.env = saved;
    }
    expect(fields(runnerContext(env))).toEqual(expected);
  });
});
