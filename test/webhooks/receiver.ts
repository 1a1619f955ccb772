import { EventEmitter } from 'node:events';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

/**
 * A real HTTP receiver on 127.0.0.1 for webhook e2e tests: records every request and answers the
 * statuses queued with `respondWith` (then 200).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly statuses: number[] = [];
  private readonly events = new EventEmitter();
  private server?: Server;

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    receiver.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const status = receiver.statuses.shift() ?? 200;
        receiver.received.push({
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          status,
        });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(String(status));
        receiver.events.emit('request');
      });
    });
    await new Promise<void>((resolve) => receiver.server!.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hooks`;
  }

  respondWith(...statuses: number[]): void {
    this.statuses.push(...statuses);
  }

  /** Resolves once a request matching `match` has arrived `count` times (event-driven). */
  waitFor(
    match: (hook: ReceivedWebhook) => boolean,
    count = 1,
    timeoutMs = 20_000,
  ): Promise<ReceivedWebhook[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.received.filter(match);
        if (found.length < count) return false;
        clearTimeout(timer);
        this.events.off('request', check);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        this.events.off('request', check);
        reject(
          new Error(
            `timed out waiting for ${count} webhook(s); got ${this.received.map((r) => typeOf(r)).join(', ')}`,
          ),
        );
      }, timeoutMs);
      if (!check()) this.events.on('request', check);
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server!.close(() => resolve()));
  }
}

export function typeOf(hook: ReceivedWebhook): string {
  return (JSON.parse(hook.body) as { type: string }).type;
}

/** Verifies with standardwebhooks, as an integrator does; returns the parsed payload. */
export function verified(secret: string, hook: ReceivedWebhook) {
  const headers = {
    'webhook-id': String(hook.headers['webhook-id']),
    'webhook-timestamp': String(hook.headers['webhook-timestamp']),
    'webhook-signature': String(hook.headers['webhook-signature']),
  };
  return new Webhook(secret).verify(hook.body, headers) as {
    type: string;
    id: string;
    createdAt: string;
    data: Record<string, unknown>;
  };
}
