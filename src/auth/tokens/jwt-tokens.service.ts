import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../common/errors/api-error';
import { AuthConfig } from '../../config/auth.config';
import { JwtSecret } from './jwt-secret';

export type TokenType = 'access' | 'refresh';

export interface TokenClaims {
  sub: string;
  acc: string;
  sid: string;
  typ: TokenType;
  jti: string;
}

/** Signs and verifies our JWTs: HS256 pinned, iss/aud/typ checked, bounded clock skew (design §4). */
@Injectable()
export class JwtTokensService {
  constructor(
    private readonly jwt: JwtService,
    private readonly config: AuthConfig,
    private readonly secret: JwtSecret,
  ) {}

  /**
   * A new token. `fixed` gives its jti and issue time (whole seconds): the same claims, jti and
   * time give the same token, byte for byte (HS256 is deterministic), which lets a refresh retry
   * get its successor back without the successor being stored (AuthSessionsService).
   */
  sign(
    typ: TokenType,
    claims: { userId: string; accountId: string; sessionId: string },
    fixed?: { jti: string; issuedAtSeconds: number },
  ): { token: string; jti: string; expiresAt: Date } {
    const jti = fixed?.jti ?? randomUUID();
    const ttl =
      typ === 'access' ? this.config.accessTokenTtlSeconds : this.config.refreshTokenTtlSeconds;
    const iat = fixed?.issuedAtSeconds ?? Math.floor(Date.now() / 1000);
    // jsonwebtoken takes iat from the payload when given, and counts expiresIn from it.
    const payload = { acc: claims.accountId, sid: claims.sessionId, typ, iat };
    const token = this.jwt.sign(payload, {
      secret: this.secret.value,
      algorithm: 'HS256',
      keyid: this.secret.keyId,
      issuer: this.config.jwtIssuer,
      audience: this.config.jwtAudience,
      subject: claims.userId,
      jwtid: jti,
      expiresIn: ttl,
    });
    return { token, jti, expiresAt: new Date((iat + ttl) * 1000) };
  }

  /**
   * Any defect (signature, algorithm, iss, aud, expiry, wrong typ, missing claim) is JWT_INVALID.
   * jsonwebtoken checks exp only when present: a token without exp or iat would never expire.
   * It ignores `crit` too; RFC 7515 §4.1.11 says a token naming extensions the recipient does not
   * understand must be refused, and we understand none (we never issue `crit`).
   */
  async verify(token: string, typ: TokenType): Promise<TokenClaims> {
    const verified = await this.verifiedWithAnyKey(token);
    if (!verified) throw invalid(typ);
    const { header, payload } = verified;
    if ('crit' in header) throw invalid(typ);
    const { sub, acc, sid, jti, exp, iat } = payload;
    if (!Number.isFinite(exp) || !Number.isFinite(iat)) throw invalid(typ);
    if (payload.typ !== typ || !isId(sub) || !isId(acc) || !isId(sid) || !isId(jti))
      throw invalid(typ);
    return { sub, acc, sid, jti, typ };
  }

  /**
   * Verified with the secret its `kid` names (the current one or one of JWT_PREVIOUS_SECRETS);
   * a token without `kid` (signed before key ids) is tried with each. Undefined: no key verifies it.
   */
  private async verifiedWithAnyKey(token: string): Promise<Verified | undefined> {
    const decoded = this.jwt.decode<{ header?: Record<string, unknown> } | null>(token, {
      complete: true,
    });
    const kid = decoded?.header?.kid;
    for (const secret of this.secret.verificationSecrets(kid)) {
      try {
        return await this.jwt.verifyAsync<Verified>(token, {
          secret,
          algorithms: ['HS256'],
          issuer: this.config.jwtIssuer,
          audience: this.config.jwtAudience,
          clockTolerance: this.config.clockSkewSeconds,
          complete: true,
        });
      } catch {
        // Not this secret (or not a valid token at all): try the next one.
      }
    }
    return undefined;
  }
}

type Verified = { header: Record<string, unknown>; payload: Record<string, unknown> };

function isId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 64;
}

export function invalid(typ: TokenType, message?: string): ApiError {
  return new ApiError('JWT_INVALID', message ?? `The ${typ} token is invalid or expired`);
}
