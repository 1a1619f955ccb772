import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

export interface RunningServer {
  pid: number;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Spawns a server process and waits for the line that tells its port. */
export function spawnServer(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  readyPattern: RegExp,
  cwd: string,
): Promise<RunningServer> {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server not ready in 60 s:\n${output.slice(-2000)}`)),
      60_000,
    );
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      const match = readyPattern.exec(output);
      if (!match) return;
      clearTimeout(timer);
      // Keep draining the pipes so a chatty logger can never block the server.
      child.stdout!.removeListener('data', onData);
      // BENCH_SERVER_LOG=<file>: keep what the servers print (GC traces, logs) for a look later.
      if (process.env.BENCH_SERVER_LOG)
        child.stdout!.pipe(createWriteStream(process.env.BENCH_SERVER_LOG, { flags: 'a' }));
      else child.stdout!.resume();
      resolve({
        pid: child.pid!,
        port: Number(match[1]),
        child,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on(
      'data',
      (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)),
    );
    child.once('exit', (code) =>
      reject(new Error(`server exited with ${code}:\n${output.slice(-2000)}`)),
    );
  });
}
