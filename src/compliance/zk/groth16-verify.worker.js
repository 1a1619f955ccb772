'use strict';
/* global require, module */
/* eslint-disable @typescript-eslint/no-require-imports -- a plain CommonJS worker */
// Worker thread of Groth16VerifierPool (plain CommonJS so that it loads the same from src/ under
// ts-node/jest and from dist/). One single-threaded bn128 curve per worker, built as the worker
// starts so that the first verification does not pay for it.
const { workerData } = require('node:worker_threads');
const snarkjs = require('snarkjs');

const curve = snarkjs.curves.getCurveFromName('bn128', { singleThread: true });

module.exports = async function verify({ publicSignals, proof }) {
  globalThis.curve_bn128 ??= await curve;
  try {
    return await snarkjs.groth16.verify(workerData.verificationKey, publicSignals, proof);
  } catch {
    return false;
  }
};
