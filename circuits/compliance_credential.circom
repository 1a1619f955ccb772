pragma circom 2.1.0;

// "I hold an unexpired compliance credential for this wallet, signed by the configured issuer key
//  and still in the issuer's tree of valid credentials, and I made this proof for this challenge."
//
// Credential (issued off-circuit by the issuer):
//   holderCommitment = Poseidon(credentialSecret)
//   leaf             = Poseidon(CREDENTIAL_TAG, wallet, holderCommitment, expiresAt)
//   signature        = EdDSA-Poseidon(issuerKey, leaf)          (Baby Jubjub, circomlib)
//   merkle path      = siblings + pathIndices of `leaf` in the issuer's Poseidon tree (depth 20)
// Revocation removes the leaf from the tree and rotates the root; the service accepts only the
// roots the issuer pushed (current and previous).
//
// Public signals, in snarkjs order (outputs first, then public inputs as declared):
//   [0] nullifier = Poseidon(NULLIFIER_TAG, credentialSecret, wallet)   one per credential
//   [1] issuerAx, [2] issuerAy   issuer public key (checked against configuration by the verifier)
//   [3] wallet                   the 160-bit address as a field element
//   [4] challenge                single-use value issued by the service (GET /verify/challenge)
//   [5] now                      unix seconds the proof claims; the verifier checks its own clock
//   [6] expiresAt                unix seconds, signed by the issuer; the circuit proves now < expiresAt
//   [7] root                     Merkle root of the issuer's valid credentials

include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/eddsaposeidon.circom";
include "circomlib/circuits/bitify.circom";
include "circomlib/circuits/comparators.circom";

// Root of a binary Poseidon Merkle tree from a leaf and its path (pathIndices[i] = 1: the node
// at level i is a right child).
template MerkleRoot(depth) {
    signal input leaf;
    signal input siblings[depth];
    signal input pathIndices[depth];
    signal output root;

    signal nodes[depth + 1];
    signal left[depth];
    component hashes[depth];
    nodes[0] <== leaf;
    for (var i = 0; i < depth; i++) {
        pathIndices[i] * (1 - pathIndices[i]) === 0;
        left[i] <== nodes[i] + pathIndices[i] * (siblings[i] - nodes[i]);
        hashes[i] = Poseidon(2);
        hashes[i].inputs[0] <== left[i];
        hashes[i].inputs[1] <== nodes[i] + siblings[i] - left[i];
        nodes[i + 1] <== hashes[i].out;
    }
    root <== nodes[depth];
}

template ComplianceCredential(depth) {
    // Domain tags: ASCII of "cgk/credential/v2" and "cgk/nullifier/v1" as big-endian integers.
    var CREDENTIAL_TAG = 0x63676b2f63726564656e7469616c2f7632;
    var NULLIFIER_TAG = 0x63676b2f6e756c6c69666965722f7631;

    signal input issuerAx;
    signal input issuerAy;
    signal input wallet;
    signal input challenge;
    signal input now;
    signal input expiresAt;
    signal input root;

    signal input credentialSecret;
    signal input sigR8x;
    signal input sigR8y;
    signal input sigS;
    signal input siblings[depth];
    signal input pathIndices[depth];

    signal output nullifier;

    // An address is 160 bits; this rules out aliases of the same wallet modulo p.
    component walletBits = Num2Bits(160);
    walletBits.in <== wallet;

    // Times are 64-bit unix seconds (LessThan is sound only on range-checked inputs).
    component nowBits = Num2Bits(64);
    nowBits.in <== now;
    component expiryBits = Num2Bits(64);
    expiryBits.in <== expiresAt;
    component unexpired = LessThan(64);
    unexpired.in[0] <== now;
    unexpired.in[1] <== expiresAt;
    unexpired.out === 1;

    component holder = Poseidon(1);
    holder.inputs[0] <== credentialSecret;

    component leaf = Poseidon(4);
    leaf.inputs[0] <== CREDENTIAL_TAG;
    leaf.inputs[1] <== wallet;
    leaf.inputs[2] <== holder.out;
    leaf.inputs[3] <== expiresAt;

    component signature = EdDSAPoseidonVerifier();
    signature.enabled <== 1;
    signature.Ax <== issuerAx;
    signature.Ay <== issuerAy;
    signature.S <== sigS;
    signature.R8x <== sigR8x;
    signature.R8y <== sigR8y;
    signature.M <== leaf.out;

    component membership = MerkleRoot(depth);
    membership.leaf <== leaf.out;
    for (var i = 0; i < depth; i++) {
        membership.siblings[i] <== siblings[i];
        membership.pathIndices[i] <== pathIndices[i];
    }
    membership.root === root;

    // The challenge only has to be bound to the proof; squaring it keeps it in a constraint.
    signal challengeSquare;
    challengeSquare <== challenge * challenge;

    component nullifierHash = Poseidon(3);
    nullifierHash.inputs[0] <== NULLIFIER_TAG;
    nullifierHash.inputs[1] <== credentialSecret;
    nullifierHash.inputs[2] <== wallet;
    nullifier <== nullifierHash.out;
}

component main {public [issuerAx, issuerAy, wallet, challenge, now, expiresAt, root]} = ComplianceCredential(20);
