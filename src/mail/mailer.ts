import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { ApiError } from '../common/errors/api-error';
import { MailConfig } from '../config/mail.config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The link the message carries: logged instead of sent when no SMTP server is configured. */
  link: string;
}

/**
 * Sends the messages that prove control of an address (nodemailer over SMTP_URL). Without SMTP
 * (demo mode only: production refuses to start so) a message is logged with its link, and
 * `delivers` is false so callers show the link instead.
 */
@Injectable()
export class Mailer implements OnModuleDestroy {
  private readonly logger = new Logger(Mailer.name);
  private readonly transport: Transporter | undefined;

  constructor(private readonly config: MailConfig) {
    this.transport = config.smtpUrl
      ? createTransport({
          url: config.smtpUrl,
          connectionTimeout: config.smtpTimeoutMs,
          greetingTimeout: config.smtpTimeoutMs,
          socketTimeout: config.smtpTimeoutMs,
        })
      : undefined;
  }

  /** Whether messages reach their address (an SMTP server is configured). */
  get delivers(): boolean {
    return this.transport !== undefined;
  }

  /** Sends (or, without SMTP, logs) one message; an SMTP failure is 503 SERVICE_UNAVAILABLE. */
  async send(message: MailMessage): Promise<void> {
    if (!this.transport) {
      this.logger.log(
        { to: message.to, subject: message.subject, link: message.link },
        'No SMTP_URL: the message is not sent; its link is logged and returned instead',
      );
      return;
    }
    try {
      await this.transport.sendMail({
        from: this.config.smtpFrom,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
    } catch (error) {
      // The SMTP answer may quote the address or the server: logged, never returned.
      this.logger.error({ err: error, subject: message.subject }, 'Mail not sent');
      throw new ApiError('SERVICE_UNAVAILABLE', 'The mail server did not take the message', {
        hint: 'Retry in a minute; if it persists, the operator should check SMTP_URL and the mail server.',
      });
    }
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}
