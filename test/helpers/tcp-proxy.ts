import { AddressInfo, connect, createServer, Server, Socket } from 'node:net';

/**
 * A controllable TCP proxy in front of a real server (PostgreSQL, Redis, the devnet RPC), so a
 * test can make a dependency vanish (`down`), hang (`blackhole`, or `stall` mid-connection), break
 * its connections (`dropConnections`) and come back (`up`, `forward`) while the app under test keeps
 * running. Only loopback addresses are ever involved.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private mode: 'forward' | 'blackhole' | 'stall' = 'forward';
  port = 0;

  constructor(
    private readonly targetPort: number,
    private readonly targetHost = '127.0.0.1',
  ) {}

  /** Starts listening (on the same port as before, after a `down`). */
  async up(): Promise<this> {
    this.mode = 'forward';
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Refuses new connections and cuts existing ones, as a crashed or unreachable server would. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.dropConnections();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Accepts connections but never answers: the slow/hung dependency case. */
  blackhole(): void {
    this.mode = 'blackhole';
    this.dropConnections();
  }

  /** Keeps every connection open but swallows the traffic both ways, new connections included. */
  stall(): void {
    this.mode = 'stall';
  }

  forward(): void {
    this.mode = 'forward';
  }

  /** Cuts every open connection (both sides); new ones are accepted as the mode says. */
  dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  private accept(client: Socket): void {
    this.sockets.add(client);
    client.on('close', () => this.sockets.delete(client));
    client.on('error', () => client.destroy());
    if (this.mode === 'blackhole') return;
    const upstream = connect(this.targetPort, this.targetHost);
    this.sockets.add(upstream);
    upstream.on('close', () => {
      this.sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.on('data', (chunk) => this.mode === 'forward' && upstream.write(chunk));
    upstream.on('data', (chunk) => this.mode === 'forward' && client.write(chunk));
  }
}
