export { buildSiweMessage, newSiweNonce, type BuildSiweMessageParams } from './build-siwe-message';
export {
  verifySiweSignature,
  verifySiweWithContractWallets,
  type ContractSignatureCheck,
  type SiweExpectations,
  type SiweSignedMessage,
} from './verify-siwe-signature';
export type { SiweFailureReason, SiweVerification } from './siwe.types';
