import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, IsNull, Repository } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { ComplianceConfig } from '../../config/compliance.config';
import { configuredIssuerPublicKey, type IssuerPublicKey } from '../zk/issuer-key';
import { CredentialIssuer, CredentialIssuerKey } from './credential-issuer.entity';
import { IssuedCredential } from './issued-credential.entity';

/** The name `POST /verify` gives the issuer of `ZK_ISSUER_PUBLIC_KEY` (or the devnet issuer). */
export const CONFIGURED_ISSUER_NAME = 'default';

/** Issuer names: what operators type and integrators read in `issuer.name`. */
export const ISSUER_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export type IssuerKeyView = {
  x: string;
  y: string;
  validFrom: number;
  validUntil: number | null;
  retiredAt: number | null;
};

export type IssuerView = {
  name: string;
  source: 'database' | 'config';
  revokedAt: number | null;
  keys: IssuerKeyView[];
};

/** Why a key's proofs are refused, or the issuer they are for. */
export type IssuerResolution =
  | { ok: true; name: string }
  | { ok: false; reason: 'unknown' | 'not_yet_valid' | 'key_expired' | 'revoked'; name?: string };

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * The credential issuers the verifier accepts. Registered by the operator over the CLI (the
 * database: adding an issuer, rotating or revoking it needs no restart, every proof reads it),
 * plus the configured one (`ZK_ISSUER_PUBLIC_KEY`, named "default"), which an operator can revoke
 * the same way. The circuit takes the issuer's key as a public input: a proof names its key, and
 * this service says whose it is and whether it still counts.
 */
@Injectable()
export class IssuersService {
  private readonly configuredKey: IssuerPublicKey;

  constructor(
    @InjectRepository(CredentialIssuer) private readonly issuers: Repository<CredentialIssuer>,
    @InjectRepository(CredentialIssuerKey) private readonly keys: Repository<CredentialIssuerKey>,
    @InjectRepository(IssuedCredential) private readonly issued: Repository<IssuedCredential>,
    @InjectDataSource() private readonly dataSource: DataSource,
    config: ComplianceConfig,
  ) {
    this.configuredKey = configuredIssuerPublicKey(config.issuerPublicKey);
  }

  /** Whose key this is and whether its proofs count now (validity dates, revocation). */
  async resolve(key: IssuerPublicKey, now = nowSeconds()): Promise<IssuerResolution> {
    const row = await this.keys.findOneBy({ x: key.x, y: key.y });
    const name =
      row?.issuerName ??
      (key.x === this.configuredKey.x && key.y === this.configuredKey.y
        ? CONFIGURED_ISSUER_NAME
        : undefined);
    if (name === undefined) return { ok: false, reason: 'unknown' };
    if (await this.isIssuerRevoked(name)) return { ok: false, reason: 'revoked', name };
    if (row && now < row.validFrom) return { ok: false, reason: 'not_yet_valid', name };
    if (row?.validUntil != null && now >= row.validUntil)
      return { ok: false, reason: 'key_expired', name };
    return { ok: true, name };
  }

  /**
   * `resolve` as POST /verify answers it: the issuer's name, or 403 CREDENTIAL_ISSUER_REVOKED, or
   * 400 PROOF_INVALID for a key we do not accept.
   */
  async acceptedIssuer(key: IssuerPublicKey): Promise<string> {
    const r = await this.resolve(key);
    if (r.ok) return r.name;
    if (r.reason === 'revoked')
      throw new ApiError(
        'CREDENTIAL_ISSUER_REVOKED',
        `The credential's issuer "${r.name}" was revoked by the operator`,
      );
    const why = {
      unknown: 'the credential was not issued by an issuer this service accepts',
      not_yet_valid: `the issuer "${r.name}"'s key is not valid yet`,
      key_expired: `the issuer "${r.name}"'s key is past its validUntil`,
    }[r.reason];
    throw new ApiError('PROOF_INVALID', why);
  }

  /** For watchers (e.g. sanctions screening): true once the operator revoked this issuer. */
  async isIssuerRevoked(name: string): Promise<boolean> {
    const row = await this.issuers.findOneBy({ name });
    return row?.revokedAt != null;
  }

  /**
   * For watchers: a credential of the demo issuer's tree, by the nullifier its proofs carry
   * (`verify_challenges.nullifier`): revoked, still valid, or not one this service issued (an
   * external issuer's credential, whose revocation shows only as a retired root).
   */
  async credentialStatus(nullifier: string): Promise<'valid' | 'revoked' | 'unknown'> {
    const rows = await this.issued.findBy({ nullifier });
    if (rows.length === 0) return 'unknown';
    return rows.some((r) => r.revokedAt === null) ? 'valid' : 'revoked';
  }

  async list(): Promise<IssuerView[]> {
    const [issuers, keys] = await Promise.all([
      this.issuers.find({ order: { name: 'ASC' } }),
      this.keys.find({ order: { id: 'ASC' } }),
    ]);
    const views: IssuerView[] = issuers.map((i) => ({
      name: i.name,
      source: 'database',
      revokedAt: i.revokedAt,
      keys: keys.filter((k) => k.issuerName === i.name).map(keyView),
    }));
    const configured = views.find((v) => v.name === CONFIGURED_ISSUER_NAME);
    const configuredKey = {
      ...this.configuredKey,
      validFrom: 0,
      validUntil: null,
      retiredAt: null,
    };
    if (!configured)
      views.unshift({
        name: CONFIGURED_ISSUER_NAME,
        source: 'config',
        revokedAt: null,
        keys: [configuredKey],
      });
    else if (!configured.keys.some((k) => k.x === configuredKey.x && k.y === configuredKey.y))
      configured.keys.unshift(configuredKey);
    return views;
  }

  async add(name: string, key: IssuerPublicKey, validity: Validity = {}): Promise<IssuerView> {
    if (name === CONFIGURED_ISSUER_NAME)
      throw new IssuerCommandError(
        `"${CONFIGURED_ISSUER_NAME}" is the configured issuer (ZK_ISSUER_PUBLIC_KEY): pick another name`,
      );
    await this.dataSource.transaction(async (m) => {
      if (await m.existsBy(CredentialIssuer, { name }))
        throw new IssuerCommandError(`issuer "${name}" already exists: rotate its key instead`);
      await this.assertKeyUnused(m.getRepository(CredentialIssuerKey), key);
      await m.insert(CredentialIssuer, { name, revokedAt: null });
      await m.insert(CredentialIssuerKey, newKeyRow(name, key, validity));
    });
    return this.view(name);
  }

  /** Retires the issuer's current key(s) and adds `key`: old credentials keep verifying. */
  async rotate(name: string, key: IssuerPublicKey, validity: Validity = {}): Promise<IssuerView> {
    await this.dataSource.transaction(async (m) => {
      const issuer = await m.findOneBy(CredentialIssuer, { name });
      if (!issuer) throw new IssuerCommandError(`no issuer "${name}" (issuers add first)`);
      if (issuer.revokedAt !== null)
        throw new IssuerCommandError(`issuer "${name}" is revoked: add a new issuer instead`);
      await this.assertKeyUnused(m.getRepository(CredentialIssuerKey), key);
      await m.update(
        CredentialIssuerKey,
        { issuerName: name, retiredAt: IsNull() },
        { retiredAt: nowSeconds() },
      );
      await m.insert(CredentialIssuerKey, newKeyRow(name, key, validity));
    });
    return this.view(name);
  }

  /** Refuses every proof of the issuer's credentials from now on ("default" included). */
  async revoke(name: string): Promise<IssuerView> {
    const existing = await this.issuers.findOneBy({ name });
    if (!existing && name !== CONFIGURED_ISSUER_NAME)
      throw new IssuerCommandError(`no issuer "${name}"`);
    if (!existing) await this.issuers.insert({ name, revokedAt: nowSeconds() });
    else if (existing.revokedAt === null)
      await this.issuers.update({ name }, { revokedAt: nowSeconds() });
    return this.view(name);
  }

  /** The issuer whose current (unretired, valid) key this is; for signing new credentials. */
  async currentIssuerOf(key: IssuerPublicKey): Promise<string> {
    const row = await this.keys.findOneBy({ x: key.x, y: key.y });
    if (row?.retiredAt != null)
      throw new IssuerCommandError(
        `this key of issuer "${row.issuerName}" was retired by a rotation: sign with its current key`,
      );
    const r = await this.resolve(key);
    if (!r.ok)
      throw new IssuerCommandError(
        r.reason === 'unknown'
          ? 'this signing key belongs to no registered issuer (issuers add --name N --public-key X,Y)'
          : `issuer "${r.name}" does not accept new credentials: ${r.reason}`,
      );
    return r.name;
  }

  private async view(name: string): Promise<IssuerView> {
    const found = (await this.list()).find((v) => v.name === name);
    if (!found) throw new IssuerCommandError(`no issuer "${name}"`);
    return found;
  }

  private async assertKeyUnused(
    keys: Repository<CredentialIssuerKey>,
    key: IssuerPublicKey,
  ): Promise<void> {
    const taken = await keys.findOneBy({ x: key.x, y: key.y });
    const isConfigured = key.x === this.configuredKey.x && key.y === this.configuredKey.y;
    if (taken || isConfigured)
      throw new IssuerCommandError(
        `this public key is already registered (issuer "${taken?.issuerName ?? CONFIGURED_ISSUER_NAME}"): an issuer key belongs to one issuer`,
      );
  }
}

export type Validity = { validFrom?: number; validUntil?: number };

/** A refused operator command (the CLI prints it with the usage). */
export class IssuerCommandError extends Error {}

function newKeyRow(issuerName: string, key: IssuerPublicKey, validity: Validity) {
  const validFrom = validity.validFrom ?? nowSeconds();
  const validUntil = validity.validUntil ?? null;
  if (validUntil !== null && validUntil <= validFrom)
    throw new IssuerCommandError('--valid-until must be after --valid-from');
  return { issuerName, x: key.x, y: key.y, validFrom, validUntil, retiredAt: null };
}

function keyView({ x, y, validFrom, validUntil, retiredAt }: CredentialIssuerKey): IssuerKeyView {
  return { x, y, validFrom, validUntil, retiredAt };
}
