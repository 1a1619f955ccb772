import { Logger } from '@nestjs/common';
import type { DevnetProcess } from './devnet-process';
import { SIGNAL_RACE_MS, superviseDevnet } from './devnet-supervisor';

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

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

  it('restarts a devnet that dies on its own, and says its state is lost', async () => {
    const supervised = await superviseDevnet({ port: 0 }, logger, spawn);
    children[0].exit({ code: null, signal: 'SIGKILL' });
    await wait(400);
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
    await wait(SIGNAL_RACE_MS + 400);
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
    await wait(SIGNAL_RACE_MS + 400);
    expect(supervised.restarts).toBe(1);
    expect(logs[0]).toMatchObject({ level: 'error' });
    await supervised.stop();
  });

  it('stop() ends the child without a restart and removes its signal listeners', async () => {
    const before = { term: process.listenerCount('SIGTERM'), int: process.listenerCount('SIGINT') };
    const supervised = await superviseDevnet({ port: 0 }, logger, spawn);
    expect(process.listenerCount('SIGTERM')).toBe(before.term + 1);
    await supervised.stop();
    await wait(SIGNAL_RACE_MS + 400);
    expect(children).toHaveLength(1);
    expect(logs.filter((entry) => entry.level !== 'debug')).toEqual([]);
    expect({
      term: process.listenerCount('SIGTERM'),
      int: process.listenerCount('SIGINT'),
    }).toEqual(before);
  });
});
