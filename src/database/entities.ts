import { ApprovalRequest } from '../approvals/approval-request.entity';
import { ApprovalVote } from '../approvals/approval-vote.entity';
import { Account } from '../accounts/account.entity';
import { Invitation } from '../accounts/invitations/invitation.entity';
import { SignupConfirmation } from '../auth/login/signup-confirmation.entity';
import { ApiKey } from '../auth/api-keys/api-key.entity';
import { IdempotencyRecord } from '../auth/idempotency/idempotency-record.entity';
import { AuthSession } from '../auth/tokens/auth-session.entity';
import { RefreshToken } from '../auth/tokens/refresh-token.entity';
import { User } from '../auth/users/user.entity';
import { Wallet } from '../compliance/wallets/wallet.entity';
import { UsageRecord } from '../usage/usage-record.entity';
import { UsageRollup } from '../usage/rollups/usage-rollup.entity';
import { SiweNonce } from '../compliance/onboarding/siwe-nonce.entity';
import { CredentialRoot } from '../compliance/credentials/credential-root.entity';
import { IssuedCredential } from '../compliance/credentials/issued-credential.entity';
import {
  CredentialIssuer,
  CredentialIssuerKey,
} from '../compliance/credentials/credential-issuer.entity';
import { VerifyChallenge } from '../compliance/verification/verify-challenge.entity';
import { AttestationSession } from '../compliance/attestations/attestation-session.entity';
import { AuditEvent } from '../audit/audit-event.entity';
import { OperatorEvent } from '../audit/operator-event.entity';
import { AccountSecurity } from '../auth/mfa/account-security.entity';
import { RecoveryCode } from '../auth/mfa/recovery-code.entity';
import { UserTotp } from '../auth/mfa/user-totp.entity';
import { MfaFailure } from '../auth/mfa/mfa-failure.entity';

import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity';
import { WebhookEvent } from '../webhooks/outbox/webhook-event.entity';
import { WebhookDelivery } from '../webhooks/outbox/webhook-delivery.entity';
import { WebhookAttempt } from '../webhooks/outbox/webhook-attempt.entity';
import { WatchedSession } from '../webhooks/scanners/watched-session.entity';
import { RelayedTransaction } from '../defi-builder/broadcast/relayed-transaction.entity';
import { QuotaThresholdMark } from '../usage/quota/quota-threshold-mark.entity';
import { ChainInstance } from '../chain/instance/chain-instance.entity';
import { CompliancePolicy } from '../compliance/policy/compliance-policy.entity';
import { OwedRevocation } from '../compliance/sessions/owed-revocation.entity';
import { ActivationWindow } from '../compliance/activation/activation-window.entity';
import {
  AttestationIndexEntry,
  AttestationIndexState,
} from '../compliance/attestations/attestation-index.entity';
import { ComplianceReceipt } from '../receipts/receipt.entity';
import { TradeReservation } from '../trading/ledger/trade-reservation.entity';
import { ReceiptSigningKey } from '../receipts/signing/receipt-signing-key.entity';
import { SessionOpening } from '../receipts/openings/session-opening.entity';
/** Every TypeORM entity, listed explicitly so the app, the CLI and the tests agree. */
export const ENTITIES = [
  Account,
  User,
  Wallet,
  ApiKey,
  AuthSession,
  RefreshToken,
  UsageRecord,
  UsageRollup,
  SiweNonce,
  VerifyChallenge,
  CredentialRoot,
  IssuedCredential,
  IdempotencyRecord,
  UserTotp,
  RecoveryCode,
  AccountSecurity,
  MfaFailure,
  AuditEvent,
  WebhookEndpoint,
  WebhookEvent,
  WebhookDelivery,
  WebhookAttempt,
  WatchedSession,
  RelayedTransaction,
  QuotaThresholdMark,
  Invitation,
  SignupConfirmation,
  ChainInstance,
  CompliancePolicy,
  CredentialIssuer,
  CredentialIssuerKey,
  AttestationSession,
  OwedRevocation,
  OperatorEvent,
  ActivationWindow,
  AttestationIndexEntry,
  AttestationIndexState,
  ComplianceReceipt,
  TradeReservation,
  ReceiptSigningKey,
  SessionOpening,
  ApprovalRequest,
  ApprovalVote,
];
