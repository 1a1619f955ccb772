import { Module } from '@nestjs/common';
import { Mailer } from './mailer';

/**
 * Mail to the addresses people give (sign-up confirmations, invitations): imported by the modules
 * that send it (auth, accounts), so the operator CLI's module graph has it too.
 */
@Module({ providers: [Mailer], exports: [Mailer] })
export class MailModule {}
