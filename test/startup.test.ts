/** The start-up (src/startup.ts) runs once per process, however many entries call it: dist/cli.js and the
 *  bundle it loads both do (the bundle is also the single executable's only file). Its effect on a run, a
 *  signal at its first moment and a preload run once, is held through dist/: test/e2e/start-once.e2e.test.ts. */
import { describe, expect, it, jest } from '@jest/globals';
import { installSignalHandlers } from '../src/signals.js';
import { setV8FlagsForTheWait, startUp, V8_FLAGS } from '../src/startup.js';

describe('startUp', () => {
  it('installs one SIGINT and one SIGTERM handler, called once or twice, and the signal is the one the wait reads', () => {
    const before = { SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM') };

    startUp({ compileCache: false });
    startUp({ compileCache: false });

    expect(process.listenerCount('SIGINT')).toBe(before.SIGINT + 1);
    expect(process.listenerCount('SIGTERM')).toBe(before.SIGTERM + 1);
    expect(installSignalHandlers().aborted).toBe(false);
    expect(installSignalHandlers()).toBe(installSignalHandlers());
  });

  it('arms the V8 flags, which a wait sets once (the built-ins it loads first: test/e2e/startup.e2e.test.ts)', () => {
    // The module object the start-up loads, with its flags recorded instead of set in this test's process.
    const v8 = process.getBuiltinModule('node:v8');
    const setFlags = jest.spyOn(v8, 'setFlagsFromString').mockImplementation(() => {});
    try {
      startUp({ compileCache: false });
      expect(setV8FlagsForTheWait()).toBe(true);
      expect(setV8FlagsForTheWait()).toBe(false);
      startUp({ compileCache: false });
      expect(setV8FlagsForTheWait()).toBe(false);

      expect(setFlags.mock.calls).toEqual(V8_FLAGS.map((flag) => [flag]));
    } finally {
      setFlags.mockRestore();
    }
  });
});
