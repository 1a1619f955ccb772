import { Global, Module } from '@nestjs/common';
import { Mailer } from './mailer';

/** Mail to the addresses people give (sign-up confirmations, invitations). */
@Global()
@Module({ providers: [Mailer], exports: [Mailer] })
export class MailModule {}
