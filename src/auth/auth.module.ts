import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyAuthenticator } from './api-keys/api-key-authenticator';
import { ApiKey } from './api-keys/api-key.entity';
import { ApiKeysController } from './api-keys/api-keys.controller';
import { ApiKeysService } from './api-keys/api-keys.service';
import { AuthController } from './login/auth.controller';
import { AuthService } from './login/auth.service';
import { SignupService } from './login/signup.service';
import { SignupConfirmation } from './login/signup-confirmation.entity';
import { AuthThrottlingModule } from './throttling/auth-throttling.module';
import { MailModule } from '../mail/mail.module';
import { AccountSecurity } from './mfa/account-security.entity';
import { AccountSecurityController } from './mfa/account-security.controller';
import { AccountSecurityService } from './mfa/account-security.service';
import { MfaKeys } from './mfa/mfa-keys';
import { MFA_STATUS } from './mfa/mfa-status';
import { MfaController } from './mfa/mfa.controller';
import { MfaService } from './mfa/mfa.service';
import { TotpSecrets } from './mfa/totp-secrets';
import { RecoveryCode } from './mfa/recovery-code.entity';
import { UserTotp } from './mfa/user-totp.entity';
import { AuthSession } from './tokens/auth-session.entity';
import { AuthSessionsService } from './tokens/auth-sessions.service';
import { JwtSecret } from './tokens/jwt-secret';
import { JwtTokensService } from './tokens/jwt-tokens.service';
import { RefreshToken } from './tokens/refresh-token.entity';
import { UsersModule } from './users/users.module';

/**
 * Login, tokens and API keys. The global guards (ApiKeyOrJwtGuard, then AccountRateLimitGuard) are
 * registered in AppModule, after the request-validation guard; `authMethod` is added to success
 * bodies as the HTTP adapter replies (auth-method.ts).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      SignupConfirmation,
      ApiKey,
      AuthSession,
      RefreshToken,
      UserTotp,
      RecoveryCode,
      AccountSecurity,
    ]),
    // The secret and options are passed per call (JwtTokensService), pinned to HS256.
    JwtModule.register({}),
    UsersModule,
    AuthThrottlingModule,
    MailModule,
  ],
  controllers: [AuthController, ApiKeysController, MfaController, AccountSecurityController],
  providers: [
    ApiKeyAuthenticator,
    ApiKeysService,
    AuthSessionsService,
    JwtSecret,
    JwtTokensService,
    AuthService,
    SignupService,
    MfaKeys,
    TotpSecrets,
    MfaService,
    AccountSecurityService,
    { provide: MFA_STATUS, useExisting: MfaService },
  ],
  // UsersModule too: the global guard (provided in AppModule) reads members' roles.
  exports: [
    ApiKeyAuthenticator,
    ApiKeysService,
    AuthSessionsService,
    JwtTokensService,
    JwtSecret,
    UsersModule,
    MFA_STATUS,
    // Approvals (issue 55) confirm a member's vote with a current TOTP code, replay-safe.
    MfaService,
  ],
})
export class AuthModule {}
