/**
 * Keeps the embedded devnet alive: when its child process dies unexpectedly (OOM kill, crash), a
 * new one is started on the same port with exponential backoff. The deployment is deterministic
 * (same deployer, same nonces), so contract addresses stay valid; the chain's state does not (every
 * session, balance and approval made since the start is gone), which the log says. Meanwhile the
 * RPC does not answer and /health/ready says 503 (chain).
 */
import { Logger } from '@nestjs/common';
import { DevnetProcess, SpawnDevnetOptions, spawnDevnet } from './devnet-process';

export const RESTART_BACKOFF_MS = [250, 500, 1_000, 2_000, 5_000, 10_000, 30_000];

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
  let restarts = 0;

  const restart = async (attempt: number): Promise<void> => {
    const delay = RESTART_BACKOFF_MS[Math.min(attempt, RESTART_BACKOFF_MS.length - 1)];
    await new Promise((resolve) => setTimeout(resolve, delay));
    if (stopping) return;
    try {
      current = await spawn({ ...options, port });
      restarts += 1;
      if (JSON.stringify(current.deployment.contracts) !== addresses)
        logger.error('Restarted devnet deployed to other addresses: restart the service');
      logger.warn(
        `Embedded devnet restarted (pid ${current.pid}, restart ${restarts}); chain state starts from the fresh deployment`,
      );
      watch(current);
    } catch (error) {
      logger.error(
        `Embedded devnet restart failed (attempt ${attempt + 1}): ${(error as Error).message}`,
      );
      await restart(attempt + 1);
    }
  };

  const watch = (child: DevnetProcess): void => {
    void child.exited.then(({ code, signal }) => {
      if (stopping || child !== current) return;
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
      await current.stop();
    },
  };
}
