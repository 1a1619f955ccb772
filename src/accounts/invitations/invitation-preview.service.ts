import { Injectable } from '@nestjs/common';
import { CredentialAttempts } from '../../auth/throttling/credential-attempts';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, Repository } from 'typeorm';
import type { Role } from '../../auth/roles';
import type { RequestMeta } from '../../common/http/request-meta';
import { AccountsService } from '../accounts.service';
import { Invitation } from './invitation.entity';
import { hashInvitationToken } from './invitation-token';
import { invitationNotFound } from './invitations.service';

export interface InvitationPreview {
  accountName: string;
  email: string;
  role: Role;
  expiresAt: string;
}

/**
 * What a pending invitation offers, for the page where its holder chooses a password: the account,
 * the invited email and the role. Only the token's holder learns it (the token was mailed to that
 * email), so it says nothing about any other email. Throttled like its acceptance: the token's
 * attempts a minute, and an unknown token counts as a failed login of the client IP.
 */
@Injectable()
export class InvitationPreviewService {
  constructor(
    @InjectRepository(Invitation) private readonly invitations: Repository<Invitation>,
    private readonly accounts: AccountsService,
    private readonly credentialAttempts: CredentialAttempts,
  ) {}

  async preview(token: string, request: RequestMeta): Promise<InvitationPreview> {
    const ip = request.ip ?? undefined;
    await this.credentialAttempts.admit({ token, purpose: 'invitation' }, ip, false);
    const invitation = await this.invitations.findOneBy({
      tokenHash: hashInvitationToken(token),
      acceptedAt: IsNull(),
      revokedAt: IsNull(),
      expiresAt: MoreThan(new Date()),
    });
    const account = invitation && (await this.accounts.findById(invitation.accountId));
    if (!invitation || !account)
      throw await this.credentialAttempts.refuse(ip, invitationNotFound());
    return {
      accountName: account.name,
      email: invitation.email,
      role: invitation.role,
      expiresAt: invitation.expiresAt.toISOString(),
    };
  }
}
