import { Global, Module } from '@nestjs/common';
import { LoginAttemptsLimiter } from '../login/login-attempts.limiter';
import { CredentialAttempts } from './credential-attempts';
import { FailedAuthThrottle } from './failed-auth.throttle';

/**
 * The login throttles, one instance per process (the failed-auth throttle keeps its blocked IPs in
 * memory), for every route that takes a password or a mailed token: login and sign-up (auth),
 * invitation acceptance (accounts).
 */
@Global()
@Module({
  providers: [LoginAttemptsLimiter, FailedAuthThrottle, CredentialAttempts],
  exports: [LoginAttemptsLimiter, FailedAuthThrottle, CredentialAttempts],
})
export class AuthThrottlingModule {}
