/** When dist/index.js restarts itself with the action's Node flags (src/node-flags.ts), and with which arguments.
 *  The restart itself is held end to end: test/e2e/node-flags.e2e.test.ts. */
import { describe, expect, it } from '@jest/globals';
import { NODE_FLAGS, restartPlan, type NodeProcess } from '../src/node-flags.js';

const execve = () => undefined;
const RUNNER: NodeProcess = {
  execPath: '/opt/node24/bin/node',
  execArgv: [],
  argv: ['/opt/node24/bin/node', '/home/runner/work/_actions/kubewait/kubewait/v1/dist/index.js'],
  version: 'v24.21.0',
  platform: 'linux',
  execve,
};

describe('restartPlan', () => {
  it.each<[string, Partial<NodeProcess>, string[] | undefined]>([
    ['the runner on Linux: Node, the flags, the script', {}, ['/opt/node24/bin/node', ...NODE_FLAGS, RUNNER.argv[1]!]],
    [
      "Node's own arguments and the script's are kept",
      { execArgv: ['--import', '/tmp/probe.mjs'], argv: [...RUNNER.argv, 'extra'] },
      ['/opt/node24/bin/node', ...NODE_FLAGS, '--import', '/tmp/probe.mjs', RUNNER.argv[1]!, 'extra'],
    ],
    ['macOS restarts too', { platform: 'darwin' }, ['/opt/node24/bin/node', ...NODE_FLAGS, RUNNER.argv[1]!]],
    ['already restarted: runs as it is', { execArgv: [...NODE_FLAGS] }, undefined],
    ['Windows (no execve): runs as it is', { platform: 'win32', execve: undefined }, undefined],
    ['a Node without execve: runs as it is', { execve: undefined }, undefined],
    ['another Node major (flags not measured there): runs as it is', { version: 'v26.1.0' }, undefined],
  ])('%s', (_name, overrides, expected) => {
    expect(restartPlan({ ...RUNNER, ...overrides })).toEqual(expected);
  });
});
