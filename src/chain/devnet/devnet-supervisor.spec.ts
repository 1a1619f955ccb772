import { Logger } from '@nestjs/common';
import { pollUntil } from '../../../test/helpers/wait';
import type { DevnetProcess } from './devnet-process';
import { superviseDevnet } from './devnet-supervisor';

type Exit = { code: number | null; signal: NodeJS.Signals | null };

/** A devnet child that exits when the test says so. */
function fakeDevnet(pid: number): DevnetProcess & { exit(exit: Exit): void } {
  let exit!: (value: Exit) => void;
  const exited = new Promise<Exit>((resolve) => (exit = resolve));
  return {
    type: 'ready',
    rpcUrl: 'http://127.0.0.1:18545',
    deployment: { contracts: { a: '0x1' } } as unknown as DevnetProcess['deployment'],
    timings: { engineMs: 0, deployMs: 0 },
    pid,
    startupMs: 0,
    exited,
    exit,
    stop: async () => exit({ code: 0, signal: null }),
  };
}

describe(superviseDevnet.name, () => {
  let logs: { level: string; message: string }[];
  let logger: Logger;
  let children: ReturnType<typeof fakeDevnet>[];
  const spawn = async () => {
    children.push(fakeDevnet(100 + children.length));
    return children[children.length - 1];
  };
  // Stands for Nest's shutdown hooks, which handle SIGTERM in the service.
  const nestListener = () => undefined;

  beforeEach(() => {
    logs = [];
    children = [];
    logger = new Logger('Devnet');
    for (const level of ['error', 'warn', 'log', 'debug'] as const)
      jest.spyOn(logger, level).mockImplementation((...args: unknown[]) => {
        logs.push({ level, message: String(args[0]) });
      });
    process.on('SIGTERM', nestListener);
  });
  afterEach(() => {
    process.removeListener('SIGTERM', nestListener);
  });

  // Each test waits for what the supervisor does (a restart, a log line), never for a fixed time:
  // its backoff and its signal race are timers, late on a loaded machine.
  const restarted = (supervised: { restarts: number }) =>
    pollUntil(
      'the restart',
      () => supervised.restarts,
      (n) => n >= 1,
    );
  const logged = () =>
    pollUntil(
      'a log line',
      () => logs.length,
      (n) => n >= 1,
    );

  it('restarts a devnet that dies on its own, and says its state is lost', async () => {
    const supervised = await superviseDevnet({ port: 0 }, logger, spawn);
    children[0].exit({ code: null, signal: 'SIGKILL' });
    await restarted(supervised);
    expect(supervised.current.pid).toBe(101);
    expect(supervised.restarts).toBe(1);
    expect(logs.map((entry) => entry.level)).toEqual(['error', 'warn']);
    expect(logs[0].message).toMatch(/exited \(code null, signal SIGKILL\).*restarting/);
    await supervised.stop();
  });

  it('lets the devnet go quietly when the service got SIGTERM too (one kill for the group)', async () => {
    const supervised = await superviseDevnet({ port: 0 }, logger, spawn);
    const sigtermListeners = process.listenerCount('SIGTERM');
    // The child may report its exit before the parent handles its own signal.
    children[0].exit({ code: 0, signal: null });
    process.emit('SIGTERM', 'SIGTERM');
    // Its one line says it let the devnet go; once stopping, it never restarts (no later event).
    await logged();
    expect(children).toHaveLength(1);
    expect(logs).toEqual([
      {
        level: 'debug',
        message: 'Embedded devnet (pid 100) stopped with the service (code 0, signal null)',
      },
    ]);
    // Its listener is gone: Nest's re-raised SIGTERM ends the process.
    expect(process.listenerCount('SIGTERM')).toBe(sigtermListeners - 1);
    await supervised.stop();
  });

  it('restarts a devnet stopped by someone else when the service was not signalled', async () => {
    const supervised = await superviseDevnet({ port: 0 }, logger, spawn);
    children[0].exit({ code: 0, signal: null });
    await restarted(supervised);
    expect(supervised.restarts).toBe(1);
    expect(logs[0]).toMatchObject({ level: 'error' });
    await supervised.stop();
  });

  it('stop() ends the child without a restart and removes its signal listeners', async () => {
    const before = { term: process.listenerCount('SIGTERM'), int: process.listenerCount('SIGINT') };
    const supervised = await superviseDevnet({ port: 0 }, logger, spawn);
    expect(process.listenerCount('SIGTERM')).toBe(before.term + 1);
    await supervised.stop();
    await logged();
    expect(children).toHaveLength(1);
    expect(logs).toEqual([
      {
        level: 'debug',
        message: 'Embedded devnet (pid 100) stopped with the service (code 0, signal null)',
      },
    ]);
    expect({
      term: process.listenerCount('SIGTERM'),
      int: process.listenerCount('SIGINT'),
    }).toEqual(before);
  });
});
