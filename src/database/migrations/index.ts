import { AccountsUsersWallets1763700000000 } from './1763700000000-accounts-users-wallets';
import { AuthKeysUsage1763800000000 } from './1763800000000-auth-keys-usage';
import { ComplianceOnboarding1763960000000 } from './1763960000000-compliance-onboarding';
import { ComplianceCredentials1764100000000 } from './1764100000000-compliance-credentials';
import { IdempotencyKeys1764200000000 } from './1764200000000-idempotency-keys';
import { UsageRollupsQuotas1764300000000 } from './1764300000000-usage-rollups-quotas';
import { Mfa1764410000000 } from './1764410000000-mfa';
import { Audit1764420000000 } from './1764420000000-audit';
import { AccountsMembers1764400000000 } from './1764400000000-accounts-members';

import { Webhooks1764430000000 } from './1764430000000-webhooks';
import { IdempotencyCaller1764440000000 } from './1764440000000-idempotency-caller';
import { SignupConfirmations1764450000000 } from './1764450000000-signup-confirmations';
import { AuditKeysetIndexes1764460000000 } from './1764460000000-audit-keyset-indexes';
import { ChainInstances1764465000000 } from './1764465000000-chain-instances';
import { CredentialIssuers1764470000000 } from './1764470000000-credential-issuers';
import { CompliancePolicies1764474000000 } from './1764474000000-compliance-policies';
import { AttestationSessions1764480000000 } from './1764480000000-attestation-sessions';
import { ComplianceRevocations1795909100000 } from './1795909100000-compliance-revocations';
import { OperatorEvents1795909200000 } from './1795909200000-operator-events';
import { CompliancePolicyVersion1795916600001 } from './1795916600001-compliance-policy-version';
import { ActivationWindows1795916600002 } from './1795916600002-activation-windows';
import { AttestationIndex1795916600003 } from './1795916600003-attestation-index';
import { ComplianceReceipts1795918800000 } from './1795918800000-compliance-receipts';
import { TradeReservations1795921000000 } from './1795921000000-trade-reservations';
import { Approvals1795921844000 } from './1795921844000-approvals';
/** Every migration in order; TypeORM runs the pending ones at start. Append new ones at the end. */
export const MIGRATIONS = [
  AccountsUsersWallets1763700000000,
  AuthKeysUsage1763800000000,
  ComplianceOnboarding1763960000000,
  ComplianceCredentials1764100000000,
  IdempotencyKeys1764200000000,
  UsageRollupsQuotas1764300000000,
  AccountsMembers1764400000000,
  Mfa1764410000000,
  Audit1764420000000,
  Webhooks1764430000000,
  IdempotencyCaller1764440000000,
  SignupConfirmations1764450000000,
  AuditKeysetIndexes1764460000000,
  ChainInstances1764465000000,
  CredentialIssuers1764470000000,
  CompliancePolicies1764474000000,
  AttestationSessions1764480000000,
  ComplianceRevocations1795909100000,
  OperatorEvents1795909200000,
  CompliancePolicyVersion1795916600001,
  ActivationWindows1795916600002,
  AttestationIndex1795916600003,
  ComplianceReceipts1795918800000,
  TradeReservations1795921000000,
  Approvals1795921844000,
];
