'use strict';
/* global require, setInterval, clearInterval */
/* eslint-disable @typescript-eslint/no-require-imports -- a plain CommonJS worker */
// Worker thread of SqliteCheckpointer (plain CommonJS so that it loads the same from src/ under
// ts-node/jest and from dist/). Its own connection to the service's database runs a PASSIVE
// checkpoint every `intervalMs`: WAL pages are copied back into the database file and both are
// fsynced here, while the service's connection keeps reading and writing.
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');

const db = new Database(workerData.path, { fileMustExist: true });

/** SQLite's answer: busy (0/1), WAL frames, frames copied back. */
const checkpoint = () => db.pragma('wal_checkpoint(PASSIVE)')[0];

const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.postMessage('ready');

parentPort.on('message', (message) => {
  if (message === 'checkpoint') parentPort.postMessage(checkpoint());
  else if (message === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
