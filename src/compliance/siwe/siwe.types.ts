export type SiweFailureReason =
  'SIWE_INVALID' | 'SIWE_DOMAIN' | 'SIWE_CHAIN' | 'SIWE_SIGNER' | 'SIWE_EXPIRED';

export type SiweVerification =
  | {
      ok: true;
      /** The message's nonce: the caller must check it was issued by us and consume it (single use). */
      nonce: string;
      /** EIP-55 checksummed signer (= the message's address). */
      address: string;
      issuedAt: string;
      expirationTime?: string;
    }
  | {
      ok: false;
      reason: SiweFailureReason;
      message: string;
      /**
       * Set when the message is valid and only its signature is not the wallet's own key's: a
       * contract wallet (a Safe) may still accept it on chain (ERC-1271 isValidSignature over
       * `hash`, the message's EIP-191 hash), so the caller asks the chain.
       */
      contractCheck?: { address: string; hash: string; signature: string };
    };
