/**
 * Keeps the embedded devnet alive: when its child process dies unexpectedly (OOM kill, crash), a
 * new one is started on the same port with exponential backoff. The deployment is deterministic
 * (same deployer, same nonces), so contract addresses stay valid; the chain's state does not (every
 * session, balance and approval made since the start is gone), which the log says. Meanwhile the
 * RPC does not answer and /health/ready says degraded (chain).
 *
 * Not when the service itself is stopping: systemd (KillMode=control-group), a terminal's Ctrl-C
 * or `kill -TERM -<pgid>` signal the devnet together with its parent, and the child exits at once
 * (code 0) while Nest is still draining requests, before ChainConnection's shutdown hook calls
 * stop(). The parent's own SIGTERM/SIGINT marks the service as stopping, so that exit is expected:
 * no error, no restart.
 */
import { Logger } from '@nestjs/common';
import { DevnetProcess, SpawnDevnetOptions, spawnDevnet } from './devnet-process';

export const RESTART_BACKOFF_MS = [250, 500, 1_000, 2_000, 5_000, 10_000, 30_000];

/** The signals that stop the service (Nest's shutdown hooks), and so the devnet with it. */
export const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/**
 * How long an exit that looks asked-for (code 0, SIGTERM, SIGINT) waits for the parent's own
 * signal before it counts as unexpected: both come from one kill, in an order no one promises.
 */
export const SIGNAL_RACE_MS = 200;

const ASKED_FOR_EXIT_SIGNALS: readonly (NodeJS.Signals | null)[] = ['SIGTERM', 'SIGINT'];

export interface SupervisedDevnet {
  /** The child currently running (replaced after a restart). */
  readonly current: DevnetProcess;
  readonly restarts: number;
  stop(): Promise<void>;
}

export async function superviseDevnet(
  options: SpawnDevnetOptions,
  logger = new Logger('Devnet'),
  spawn: (options: SpawnDevnetOptions) => Promise<DevnetProcess> = spawnDevnet,
): Promise<SupervisedDevnet> {
  let current = await spawn(options);
  // Restart on the port the first child got (options.port may be 0 = ephemeral).
  const port = Number(new URL(current.rpcUrl).port);
  const addresses = JSON.stringify(current.deployment.contracts);
  let stopping = false;
  let signalled: NodeJS.Signals | undefined;
  let restarts = 0;

  const onShutdownSignal = (signal: NodeJS.Signals): void => {
    signalled = signal;
    unlisten();
    // Alone, this listener would cancel the signal's default action (exit): keep it.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const unlisten = (): void => {
    for (const signal of SHUTDOWN_SIGNALS) process.removeListener(signal, onShutdownSignal);
  };
  for (const signal of SHUTDOWN_SIGNALS) process.once(signal, onShutdownSignal);
  const shuttingDown = (): boolean => stopping || signalled !== undefined;

  const restart = async (attempt: number): Promise<void> => {
    const delay = RESTART_BACKOFF_MS[Math.min(attempt, RESTART_BACKOFF_MS.length - 1)];
    await new Promise((resolve) => setTimeout(resolve, delay));
    if (shuttingDown()) return;
    try {
      const child = await spawn({ ...options, port });
      if (shuttingDown()) {
        // The service began to stop while this one deployed: it is nobody's to stop later.
        await child.stop();
        return;
      }
      current = child;
      restarts += 1;
      if (JSON.stringify(current.deployment.contracts) !== addresses)
        logger.error('Restarted devnet deployed to other addresses: restart the service');
      logger.warn(
        `Embedded devnet restarted (pid ${current.pid}, restart ${restarts}); chain state starts from the fresh deployment`,
      );
      watch(current);
    } catch (error) {
      if (shuttingDown()) return;
      logger.error(
        `Embedded devnet restart failed (attempt ${attempt + 1}): ${(error as Error).message}`,
      );
      await restart(attempt + 1);
    }
  };

  const watch = (child: DevnetProcess): void => {
    void child.exited.then(async ({ code, signal }) => {
      if (child !== current) return;
      if (!shuttingDown() && (code === 0 || ASKED_FOR_EXIT_SIGNALS.includes(signal)))
        await new Promise((resolve) => setTimeout(resolve, SIGNAL_RACE_MS));
      if (shuttingDown()) {
        logger.debug(
          `Embedded devnet (pid ${child.pid}) stopped with the service (code ${code}, signal ${signal})`,
        );
        return;
      }
      logger.error(
        `Embedded devnet (pid ${child.pid}) exited (code ${code}, signal ${signal}): its chain state is lost (sessions, balances, approvals since start); restarting`,
      );
      void restart(0);
    });
  };
  watch(current);

  return {
    get current() {
      return current;
    },
    get restarts() {
      return restarts;
    },
    async stop() {
      stopping = true;
      unlisten();
      await current.stop();
    },
  };
}
