import type { IssuerPublicKey } from './issuer-key';

/**
 * The TEST-NETWORK credential issuer. Its private key is public on purpose (like the devnet
 * mnemonic): anyone can mint credentials with it, so a production deployment MUST configure its
 * own issuer public key (`ZK_ISSUER_PUBLIC_KEY`) and keep the private key with the issuer.
 *
 * Private key = sha256("cgk devnet compliance issuer v1"); the public key is derived with
 * circomlibjs `eddsa.prv2pub` (a unit test checks the pair stays consistent).
 */
export const DEVNET_ISSUER_PRIVATE_KEY =
  '0x5cf288a745d540a2cc0b4fb5e186f0304f78b3b33c67147236a24262ae09f705';

export const DEVNET_ISSUER_PUBLIC_KEY: IssuerPublicKey = Object.freeze({
  x: '4658821707763369642962496220899601566415381978603315355108512783816817304920',
  y: '14320331470559115920510823874129921797036944214367420761346230622331451152939',
});
