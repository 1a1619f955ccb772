/**
 * The start check: once, before the service serves, the network file it read must describe the
 * chain behind CHAIN_RPC_URL (verifyNetwork, the check of `npm run cli -- verify-network`).
 *
 * Production checks whatever file it reads (CHAIN_NETWORK_FILE, or the shipped base-sepolia file
 * completed by COMPLIANCE_* addresses) and refuses to start on a mismatch, naming each field.
 * Demo mode checks an operator's file (CHAIN_NETWORK_FILE: three RPC requests) and logs the same
 * lines as a warning, then starts: a developer pointing at a half-built chain still gets the app,
 * whose reads of a missing contract answer 503 CHAIN_UNAVAILABLE. Demo mode on a shipped file (the
 * test suites' shared devnet) and the embedded devnet are not checked: the deployment that the
 * file was generated from is the truth there.
 *
 * An RPC that does not answer leaves the file unverified in both modes: the start goes on and
 * /health/ready reports the chain degraded, as for an outage after the start.
 */
import { Injectable, Logger, OnModuleInit, Optional } from '@nestjs/common';
import { AppConfig } from '../../config/app.config';
import { ChainConfig } from '../../config/chain.config';
import { ComplianceConfig } from '../../config/compliance.config';
import { TradingConfig } from '../../config/trading.config';
import { ChainConnection, redactUrl } from '../chain-connection';
import { isTransportFailure } from '../chain-errors';
import { addressOf } from '../signers/open-signer';
import { mismatchLines, verifyNetwork, warningLines } from './verify-network';

@Injectable()
export class NetworkFileCheck implements OnModuleInit {
  private readonly logger = new Logger('NetworkFileCheck');

  constructor(
    private readonly connection: ChainConnection,
    private readonly app: AppConfig,
    private readonly compliance: ComplianceConfig,
    private readonly chain: ChainConfig,
    @Optional() private readonly trading?: TradingConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    const networkFile = this.connection.networkFile;
    const production = this.app.mode === 'production';
    if (!networkFile || (!production && !this.chain.networkFile)) return;
    const where = `the network file ${networkFile.source}`;
    const chain = `the chain at ${redactUrl(this.connection.rpcUrl)}`;
    let lines: string[];
    try {
      const result = await verifyNetwork(
        this.connection.reads,
        networkFile.file,
        this.configuredAttesters(),
      );
      for (const line of warningLines(result)) this.logger.warn(`${where}: ${line}`);
      if (result.ok) {
        this.logger.log(`${where} matches ${chain} (${result.checks.length} checks)`);
        return;
      }
      lines = mismatchLines(result);
    } catch (err) {
      const cause = err instanceof Error ? err.message : String(err);
      if (isTransportFailure(err) || !production) {
        this.logger.warn(`${where} was not verified against ${chain}: ${cause}`);
        return;
      }
      throw new Error(`${where} could not be verified against ${chain}: ${cause}`);
    }
    const message =
      `${where} does not match ${chain}:\n  ${lines.join('\n  ')}\n` +
      'Check it with npm run cli -- verify-network --rpc <CHAIN_RPC_URL> --network-file <file>.';
    if (production) throw new Error(message);
    this.logger.warn(
      `${message} Demo mode: starting anyway; reads of a missing contract answer 503.`,
    );
  }

  /** The attesters the service will sign with (a key, or a PKCS#11 token's), by their setting. */
  private configuredAttesters() {
    const c = this.compliance;
    const pkcs11 = c.attesterSigner === 'pkcs11';
    const standby = c.attesterStandby;
    return {
      attester: c.attesterPkcs11
        ? addressOf({ pkcs11: c.attesterPkcs11 }, 'PKCS11_KEY_LABEL')
        : c.attesterPrivateKey && addressOf({ privateKey: c.attesterPrivateKey }),
      attesterField: pkcs11 ? 'PKCS11_KEY_LABEL' : 'ATTESTER_PRIVATE_KEY',
      standbyAttester: standby && addressOf(standby, 'PKCS11_STANDBY_KEY_LABEL'),
      standbyAttesterField: pkcs11 ? 'PKCS11_STANDBY_KEY_LABEL' : 'ATTESTER_STANDBY_PRIVATE_KEY',
      // Hook v3: the key trade authorizations are signed with, when it is its own.
      ...this.configuredAuthorizer(),
    };
  }

  private configuredAuthorizer(): { authorizer?: string; authorizerField?: string } {
    const t = this.trading;
    if (t?.authorizerPkcs11)
      return {
        authorizer: addressOf({ pkcs11: t.authorizerPkcs11 }, 'AUTHORIZER_PKCS11_KEY_LABEL'),
        authorizerField: 'AUTHORIZER_PKCS11_KEY_LABEL',
      };
    if (t?.authorizerPrivateKey)
      return {
        authorizer: addressOf({ privateKey: t.authorizerPrivateKey }),
        authorizerField: 'AUTHORIZER_PRIVATE_KEY',
      };
    return {};
  }
}
