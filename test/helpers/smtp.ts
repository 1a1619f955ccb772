import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { pollUntil } from './wait';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** Headers and the decoded text body. */
  raw: string;
}

export interface TestSmtp {
  /** smtp://user:pass@127.0.0.1:port, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** The token of the first message to `to` whose link has `fragment` (accept-invitation, confirm-signup). */
  waitForToken(to: string, fragment: string): Promise<string>;
  close(): Promise<void>;
}

const USER = 'mailer';
const PASS = 'smtp test password';

/**
 * A real SMTP server in this process (the `smtp-server` package): the app's nodemailer talks SMTP
 * to it, with AUTH, and every accepted message is kept for the test to read.
 */
export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASS) callback(null, { user: USER });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${USER}:${encodeURIComponent(PASS)}@127.0.0.1:${port}`,
    received,
    async waitForToken(to, fragment) {
      const pattern = new RegExp(`#${fragment}=([A-Za-z0-9_-]+)`);
      const mail = await pollUntil(
        `a message to ${to} with #${fragment}=`,
        () => received.find((m) => m.to.includes(to) && pattern.test(m.raw)),
        (found) => found !== undefined,
      );
      return pattern.exec(mail!.raw)![1]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
