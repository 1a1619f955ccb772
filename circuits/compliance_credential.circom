pragma circom 2.1.0;

// "I hold a compliance credential, signed by the configured issuer key, for this wallet."
//
// Credential (issued off-circuit by the issuer):
//   holderCommitment = Poseidon(credentialSecret)
//   message          = Poseidon(CREDENTIAL_TAG, wallet, holderCommitment)
//   signature        = EdDSA-Poseidon(issuerKey, message)      (Baby Jubjub, circomlib)
// The issuer only ever sees holderCommitment, so it cannot compute the holder's nullifier.
//
// Public signals, in snarkjs order (outputs first, then public inputs as declared):
//   [0] nullifier = Poseidon(NULLIFIER_TAG, credentialSecret, wallet)
//   [1] issuerAx, [2] issuerAy   issuer public key (checked against configuration by the verifier)
//   [3] wallet                   the 160-bit address as a field element

include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/eddsaposeidon.circom";
include "circomlib/circuits/bitify.circom";

template ComplianceCredential() {
    // Domain tags: ASCII of "cgk/credential/v1" and "cgk/nullifier/v1" as big-endian integers.
    var CREDENTIAL_TAG = 0x63676b2f63726564656e7469616c2f7631;
    var NULLIFIER_TAG = 0x63676b2f6e756c6c69666965722f7631;

    signal input issuerAx;
    signal input issuerAy;
    signal input wallet;

    signal input credentialSecret;
    signal input sigR8x;
    signal input sigR8y;
    signal input sigS;

    signal output nullifier;

    // An address is 160 bits; this rules out aliases of the same wallet modulo p.
    component walletBits = Num2Bits(160);
    walletBits.in <== wallet;

    component holder = Poseidon(1);
    holder.inputs[0] <== credentialSecret;

    component message = Poseidon(3);
    message.inputs[0] <== CREDENTIAL_TAG;
    message.inputs[1] <== wallet;
    message.inputs[2] <== holder.out;

    component signature = EdDSAPoseidonVerifier();
    signature.enabled <== 1;
    signature.Ax <== issuerAx;
    signature.Ay <== issuerAy;
    signature.S <== sigS;
    signature.R8x <== sigR8x;
    signature.R8y <== sigR8y;
    signature.M <== message.out;

    component nullifierHash = Poseidon(3);
    nullifierHash.inputs[0] <== NULLIFIER_TAG;
    nullifierHash.inputs[1] <== credentialSecret;
    nullifierHash.inputs[2] <== wallet;
    nullifier <== nullifierHash.out;
}

component main {public [issuerAx, issuerAy, wallet]} = ComplianceCredential();
