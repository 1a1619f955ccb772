/**
 * A fixed piece of CPU work for the machine benches (bench/idle-gap.ts, the cost twin's server):
 * `jsonUnits(n)` makes n JSON round trips of a 200-row object (~0.1 ms each on a fast vCPU here).
 * Plain JavaScript, so the twin's server loads it without ts-node.
 */
'use strict';
/* global module */
const doc = {
  rows: Array.from({ length: 200 }, (_, i) => ({
    id: i,
    name: `row ${i}`,
    v: [i, i * 2, `v${i}`],
  })),
};

function jsonUnits(n) {
  let rows = 0;
  for (let k = 0; k < n; k += 1) rows += JSON.parse(JSON.stringify(doc)).rows.length;
  return rows;
}

module.exports = { jsonUnits };
