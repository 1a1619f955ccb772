'use strict';
/* global require, module */
/* eslint-disable @typescript-eslint/no-require-imports -- a plain CommonJS worker */
// Worker thread of Groth16VerifierPool (plain CommonJS so that it loads the same from src/ under
// ts-node/jest and from dist/). One single-threaded bn128 curve per worker, built as the worker
// starts so that the first verification does not pay for it.
const Module = require('node:module');
const { workerData } = require('node:worker_threads');

// ffjavascript loads `web-worker`, which, required in ANY worker thread, assumes it is a web
// worker it spawned: it takes over the thread's global scope and parentPort and tries to load
// a script named in workerData. Our curve is single-threaded (it never spawns workers), so the
// module is replaced, in this thread only, by a class that refuses to be used.
const ffjavascript = Module.createRequire(require.resolve('snarkjs')).resolve('ffjavascript');
const webWorker = Module.createRequire(ffjavascript).resolve('web-worker');
const stub = new Module(webWorker);
stub.filename = webWorker;
stub.loaded = true;
stub.exports = class NoWebWorker {
  constructor() {
    throw new Error('verifier workers use a single-threaded curve: no nested workers');
  }
};
require.cache[webWorker] = stub;

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
