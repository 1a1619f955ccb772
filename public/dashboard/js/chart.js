// @ts-check
import { html, useEffect, useRef, useState } from '../vendor/preact-htm.js';
import { count } from './format.js';

/**
 * A bar chart drawn as SVG: one bar per bucket (succeeded and failed stacked), a y axis with
 * round ticks, every few buckets labelled. The table beside it carries the same numbers for
 * screen readers.
 * @param {{buckets: {label: string, succeeded: number, failed: number}[], title: string}} props
 */
export function BarChart({ buckets, title }) {
  // The drawing is as wide as its box in CSS pixels, so labels keep their size on any screen.
  const box = useRef(/** @type {HTMLDivElement | null} */ (null));
  const [width, setWidth] = useState(720);
  useEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const observer = new ResizeObserver(([entry]) =>
      setWidth(Math.max(240, Math.round(entry.contentRect.width))),
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const height = 220;
  const pad = { left: 44, right: 8, top: 10, bottom: 28 };
  const max = niceMax(Math.max(1, ...buckets.map((b) => b.succeeded + b.failed)));
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const slot = plotW / Math.max(1, buckets.length);
  const barW = Math.max(2, slot * 0.7);
  const y = (/** @type {number} */ v) => pad.top + plotH - (v / max) * plotH;
  const ticks = [0, max / 2, max];
  const labelEvery = Math.ceil(buckets.length / Math.max(2, Math.floor(width / 70)));

  return html`<div class="chart-box" ref=${box}>
    <svg
      class="chart"
      width=${width}
      height=${height}
      viewBox=${`0 0 ${width} ${height}`}
      role="img"
      aria-label=${title}
    >
      ${ticks.map(
        (t) =>
          html`<g key=${t}>
            <line class="grid" x1=${pad.left} x2=${width - pad.right} y1=${y(t)} y2=${y(t)} />
            <text class="axis" x=${pad.left - 6} y=${y(t) + 4} text-anchor="end">${count(t)}</text>
          </g>`,
      )}
      ${buckets.map((b, i) => {
        const x = pad.left + i * slot + (slot - barW) / 2;
        return html`<g key=${b.label}>
          <title>${`${b.label}: ${b.succeeded} succeeded, ${b.failed} failed`}</title>
          <rect
            class="ok"
            x=${x}
            width=${barW}
            y=${y(b.succeeded)}
            height=${y(0) - y(b.succeeded)}
          />
          <rect
            class="failed"
            x=${x}
            width=${barW}
            y=${y(b.succeeded + b.failed)}
            height=${y(b.succeeded) - y(b.succeeded + b.failed)}
          />
          ${
            i % labelEvery === 0 &&
            html`<text class="axis" x=${x + barW / 2} y=${height - 8} text-anchor="middle">
              ${b.label}
            </text>`
          }
        </g>`;
      })}
    </svg>
  </div>`;
}

/** The smallest of 1, 2, 5 x 10^n at or above `v`, so that the axis reads in round numbers. */
function niceMax(/** @type {number} */ v) {
  const power = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((m) => m * power).find((m) => m >= v) ?? v;
}
