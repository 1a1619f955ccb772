/**
 * Whether a user has two-factor sign-in, for readers outside the MFA feature (`/auth/me`).
 * Inject with `@Inject(MFA_STATUS) mfa: MfaStatus`; provided by the auth module.
 */
export interface MfaStatus {
  isEnabled(userId: string): Promise<boolean>;
}

export const MFA_STATUS = Symbol('MFA_STATUS');
