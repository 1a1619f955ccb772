// This function runs in the page (page.evaluate), on the DOM Chromium laid out.
/// <reference lib="dom" />

/**
 * What a reader of the page would call broken, measured on the boxes Chromium laid out: an
 * interactive element (link, button, field, select, summary, file chooser) that sticks out of the
 * screen, is cut off by a scrolling or clipping ancestor (a Revoke button past a card's edge), has
 * text cut off inside it, overlaps another interactive element, or has text of another element
 * over it (status text over buttons). One line per problem; empty when the page is readable.
 *
 * Self-contained (no imports, no helpers from outside): Playwright sends its source to the page.
 */
export function layoutProblems(): string[] {
  const SLACK = 1; // sub-pixel rounding
  const problems: string[] = [];
  const describe = (el: Element): string => {
    const label =
      el.getAttribute('aria-label') ??
      (el as HTMLElement).innerText?.trim().replace(/\s+/g, ' ').slice(0, 40) ??
      '';
    const id = el.id ? `#${el.id}` : '';
    return `${el.tagName.toLowerCase()}${id}${label ? ` "${label}"` : ''}`;
  };
  const visible = (el: Element): boolean => {
    const rect = el.getBoundingClientRect();
    if (rect.width <= SLACK || rect.height <= SLACK) return false; // .sr-only and hidden inputs
    // The skip link waits off-screen until it is focused.
    if (rect.right <= 0 || rect.bottom <= -window.scrollY) return false;
    // Rendered at all: not in a closed <details> (content-visibility), not hidden or transparent.
    return el.checkVisibility({
      contentVisibilityAuto: true,
      opacityProperty: true,
      visibilityProperty: true,
    });
  };
  const interactive = [
    ...document.querySelectorAll(
      'a[href], button, input:not([type=hidden]), select, textarea, summary, label.file-button',
    ),
  ].filter(visible);
  const overlap = (a: DOMRect, b: DOMRect): number =>
    Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
    Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

  for (const el of interactive) {
    const rect = el.getBoundingClientRect();
    if (rect.left < -SLACK || rect.right > document.documentElement.clientWidth + SLACK)
      problems.push(`${describe(el)} sticks out of the screen`);
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const style = getComputedStyle(a);
      const box = a.getBoundingClientRect();
      const clipsX = style.overflowX !== 'visible';
      const clipsY = style.overflowY !== 'visible';
      if (
        (clipsX && (rect.left < box.left - SLACK || rect.right > box.right + SLACK)) ||
        (clipsY && (rect.top < box.top - SLACK || rect.bottom > box.bottom + SLACK))
      ) {
        problems.push(`${describe(el)} is cut off by ${describe(a).split(' ')[0]}.${a.className}`);
        break;
      }
    }
    // Text cut off inside a control that shows text (a field's value may scroll; an ellipsis is
    // a one-line summary whose whole text is a click away, as the audit log's details).
    const own = getComputedStyle(el);
    if (
      ['BUTTON', 'A', 'SUMMARY', 'LABEL'].includes(el.tagName) &&
      el.scrollWidth > el.clientWidth + SLACK &&
      own.overflowX !== 'visible' &&
      own.textOverflow !== 'ellipsis'
    )
      problems.push(`${describe(el)} cuts its own text off`);
    // A file chooser draws its button and file name inside its box, which reports no overflow:
    // compare its width with the width it takes when nothing constrains it.
    if (el instanceof HTMLInputElement && el.type === 'file') {
      const probe = el.cloneNode() as HTMLInputElement;
      probe.style.cssText =
        'position:absolute;visibility:hidden;width:auto;min-width:0;max-width:none;inset:auto';
      el.after(probe);
      const needed = probe.getBoundingClientRect().width;
      probe.remove();
      if (rect.width + SLACK < needed)
        problems.push(
          `${describe(el)} cuts its own text off (${Math.round(rect.width)} of ${Math.round(needed)} px)`,
        );
    }
  }

  for (let i = 0; i < interactive.length; i += 1)
    for (let j = i + 1; j < interactive.length; j += 1) {
      const [a, b] = [interactive[i], interactive[j]];
      if (a.contains(b) || b.contains(a)) continue;
      if (overlap(a.getBoundingClientRect(), b.getBoundingClientRect()) > SLACK * SLACK)
        problems.push(`${describe(a)} overlaps ${describe(b)}`);
    }

  // Text of the page drawn over a control it does not belong to.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent?.trim()) continue;
    const parent = node.parentElement;
    if (!parent || !visible(parent) || parent.closest('option, select, .sr-only')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const boxes = [...range.getClientRects()];
    for (const el of interactive) {
      if (el.contains(node)) continue;
      const rect = el.getBoundingClientRect();
      if (boxes.some((box) => overlap(box, rect) > 2 * SLACK * SLACK)) {
        problems.push(`text "${node.textContent.trim().slice(0, 30)}" lies over ${describe(el)}`);
        break;
      }
    }
  }
  return [...new Set(problems)];
}
