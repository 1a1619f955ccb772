'use strict';
// Worker thread of Groth16VerifierPool (plain CommonJS so that it loads the same from src/ under
// ts-node/jest and from dist/). One single-threaded bn128 curve per worker, built on first use.
const { workerData } = require('node:worker_threads');
const snarkjs = require('snarkjs');

let curve;

module.exports = async function verify({ publicSignals, proof }) {
  curve ??= snarkjs.curves.getCurveFromName('bn128', { singleThread: true });
  globalThis.curve_bn128 ??= await curve;
  try {
    return await snarkjs.groth16.verify(workerData.verificationKey, publicSignals, proof);
  } catch {
    return false;
  }
};
