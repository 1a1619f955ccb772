import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from './api-keys/api-key.entity';
import { ApiKeysController } from './api-keys/api-keys.controller';
import { ApiKeysService } from './api-keys/api-keys.service';
import { AuthController } from './login/auth.controller';
import { AuthService } from './login/auth.service';
import { LoginAttemptsLimiter } from './login/login-attempts.limiter';
import { FailedAuthThrottle } from './throttling/failed-auth.throttle';
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
    TypeOrmModule.forFeature([ApiKey, AuthSession, RefreshToken]),
    // The secret and options are passed per call (JwtTokensService), pinned to HS256.
    JwtModule.register({}),
    UsersModule,
  ],
  controllers: [AuthController, ApiKeysController],
  providers: [
    ApiKeysService,
    AuthSessionsService,
    JwtSecret,
    JwtTokensService,
    AuthService,
    LoginAttemptsLimiter,
    FailedAuthThrottle,
  ],
  exports: [ApiKeysService, AuthSessionsService, JwtTokensService, FailedAuthThrottle, JwtSecret],
})
export class AuthModule {}
