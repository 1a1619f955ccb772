// @ts-check
import { html, useEffect, useState } from '../vendor/preact-htm.js';
import { api } from './api.js';
import { tokenAmount } from './format.js';
import { Address, ErrorMessage, Section } from './ui.js';

/**
 * The market (issue 42, design §9): the network's tokens and pools from GET /api/v1/defi/config,
 * and a quote with a market picker (token in, token out, amount, trade type): POST
 * /api/v1/defi/quote answers with the best route across the pools, shown hop by hop. A pair with
 * no route shows the NO_ROUTE envelope, whose hint names what the token trades against.
 * @typedef {import('../../../clients/typescript/src/schema').components['schemas']} Schemas
 * @typedef {Schemas['QuoteResponseDto']} Quote
 * @typedef {{symbol: string, address: string, decimals: number}} Token
 * @typedef {{id: string, currency0: string, currency1: string, fee: number}} Pool
 */

const ETH = { symbol: 'ETH', address: '0x0000000000000000000000000000000000000000', decimals: 18 };

/** Whole tokens typed by a person ("0.5") in smallest units; null when it is not a number. */
function smallestUnits(/** @type {string} */ text, /** @type {number} */ decimals) {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match || (match[2] ?? '').length > decimals) return null;
  const fraction = (match[2] ?? '').padEnd(decimals, '0');
  return (BigInt(match[1]) * 10n ** BigInt(decimals) + BigInt(fraction || '0')).toString();
}

/** A pool fee in hundredths of a bip, as a percentage. */
const feePercent = (/** @type {number} */ fee) => `${fee / 10_000} %`;

export function MarketsSection() {
  const [tokens, setTokens] = useState(/** @type {Token[]} */ ([]));
  const [pools, setPools] = useState(/** @type {Pool[]} */ ([]));
  const [quote, setQuote] = useState(/** @type {Quote | null} */ (null));
  const [error, setError] = useState(/** @type {any} */ (null));
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api('/api/v1/defi/config').then((config) => {
      setTokens(config.tokens);
      setPools(config.pools ?? []);
    }, setError);
  }, []);

  const all = [ETH, ...tokens];
  const byAddress = (/** @type {string} */ address) =>
    all.find((t) => t.address.toLowerCase() === address.toLowerCase());
  const symbol = (/** @type {string} */ address) => byAddress(address)?.symbol ?? address;

  /** @param {SubmitEvent} event */
  async function submit(event) {
    event.preventDefault();
    const form = new FormData(/** @type {HTMLFormElement} */ (event.currentTarget));
    const tradeType = String(form.get('tradeType'));
    const tokenIn = String(form.get('tokenIn'));
    const tokenOut = String(form.get('tokenOut'));
    const exactToken = byAddress(tradeType === 'EXACT_OUTPUT' ? tokenOut : tokenIn);
    const amount = smallestUnits(String(form.get('amount')), exactToken?.decimals ?? 18);
    setQuote(null);
    if (amount === null) {
      setError({ message: 'The amount is a number of whole tokens, e.g. 0.5' });
      return;
    }
    setBusy(true);
    try {
      setQuote(
        await api('/api/v1/defi/quote', {
          method: 'POST',
          body: { tokenIn, tokenOut, amount, tradeType },
        }),
      );
      setError(null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const amountOf = (/** @type {string} */ raw, /** @type {string} */ address) =>
    `${tokenAmount(raw, byAddress(address)?.decimals ?? 18)} ${symbol(address)}`;
  /** One line per hop; built as text so the markup's line breaks add no stray spaces. */
  const hopText = (/** @type {Quote['route']['hops'][number]} */ h) =>
    `${amountOf(h.amountIn ?? '0', h.tokenIn)} → ${amountOf(h.amountOut ?? '0', h.tokenOut)} ` +
    `in the ${symbol(h.tokenIn)}/${symbol(h.tokenOut)} pool, fee ${feePercent(h.fee)}`;
  const summaryOf = (/** @type {Quote} */ q) =>
    `Pay ${amountOf(q.amountIn, q.tokenIn)}, receive ${amountOf(q.amountOut, q.tokenOut)} ` +
    `(price impact ${q.priceImpactBps / 100} %)`;
  const options = all.map(
    (t) => html`<option key=${t.address} value=${t.address}>${t.symbol}</option>`,
  );
  return html`<${Section} id="markets" title="Markets">
    <h3>Pools</h3>
    <div class="table-wrap stack" tabindex="0" role="region" aria-label="Pools table">
      <table data-testid="pools">
        <thead>
          <tr>
            <th scope="col">Pair</th>
            <th scope="col">Fee</th>
            <th scope="col">Pool id (poolId)</th>
          </tr>
        </thead>
        <tbody>
          ${pools.map(
            (p) =>
              html`<tr key=${p.id}>
                <td data-label="Pair">${symbol(p.currency0)} / ${symbol(p.currency1)}</td>
                <td data-label="Fee">${feePercent(p.fee)}</td>
                <td data-label="Pool id"><${Address} address=${p.id} /></td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    <h3>Quote a swap</h3>
    <form class="quote" onSubmit=${submit} aria-label="Quote a swap">
      <label class="field"
        >Pay<select name="tokenIn" aria-label="Token in">
          ${options}
        </select></label
      >
      <label class="field"
        >Receive
        <select name="tokenOut" aria-label="Token out" value=${tokens[1]?.address}>
          ${options}
        </select>
      </label>
      <label class="field"
        >Amount (whole tokens)
        <input name="amount" required inputmode="decimal" autocomplete="off" value="1" />
      </label>
      <label class="field"
        >The amount is
        <select name="tradeType" aria-label="Trade type">
          <option value="EXACT_INPUT">what I pay</option>
          <option value="EXACT_OUTPUT">what I receive</option>
        </select>
      </label>
      <button type="submit" class="primary" disabled=${busy}>Quote</button>
    </form>
    <${ErrorMessage} error=${error} />
    ${
      quote &&
      html`<div class="preflight" role="region" aria-label="Best route">
        <p data-testid="quote-summary">${summaryOf(quote)}</p>
        <ol data-testid="route">
          ${quote.route.hops.map((h) => html`<li key=${h.poolId}>${hopText(h)}</li>`)}
        </ol>
      </div>`
    }
  <//>`;
}
