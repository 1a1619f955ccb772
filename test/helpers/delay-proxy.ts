import { AddressInfo, connect, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of a real server (the devnet's JSON-RPC) that holds every chunk sent to
 * the server for `delayMs` before forwarding it, in order: a slow node, not a dead one (answers
 * still come, late). `delayMs` can change at any time; 0 forwards at once. Loopback only.
 */
export class DelayProxy {
  delayMs = 0;
  port = 0;
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly targetPort: number) {}

  async start(): Promise<this> {
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    const upstream = connect(this.targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    }
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    // Each chunk is due `delayMs` after it arrived, never before the previous one (order kept
    // when the delay changes mid-connection).
    let lastDue = 0;
    client.on('data', (chunk) => {
      const due = Math.max(Date.now() + this.delayMs, lastDue);
      lastDue = due;
      const wait = due - Date.now();
      if (wait <= 0) upstream.write(chunk);
      else setTimeout(() => upstream.destroyed || upstream.write(chunk), wait);
    });
    upstream.on('data', (chunk) => client.write(chunk));
  }
}
