import { AddressInfo, createServer, Server } from 'node:net';

/** Listens on an ephemeral loopback port and returns it (never a fixed port). */
export async function listenOnEphemeralPort(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** A loopback port nothing listens on: bound, read, released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listenOnEphemeralPort(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `scheme://127.0.0.1:<closed port>`, e.g. an RPC or Redis URL that refuses connections. */
export async function closedPortUrl(scheme = 'http'): Promise<string> {
  return `${scheme}://127.0.0.1:${await closedPort()}`;
}
