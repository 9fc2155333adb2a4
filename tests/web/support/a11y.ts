/**
 * A small axe-style check, run inside the page (page.evaluate(a11yViolations)): the rules a
 * referee with a tablet, a player across the room and a screen-reader user hit first.
 * Each violation is one line naming the rule and the element. Self-contained: it is
 * serialised into the browser, so it must not use anything from this module's scope.
 */
export function a11yViolations(): string[] {
  const out: string[] = [];
  const describe = (el: Element) => {
    const id = el.id ? `#${el.id}` : '';
    const cls = el.getAttribute('class') ? `.${el.getAttribute('class')!.trim().split(/\s+/).join('.')}` : '';
    const name = el.getAttribute('name') ? `[name=${el.getAttribute('name')}]` : '';
    return `<${el.tagName.toLowerCase()}${id}${cls}${name}>`;
  };
  const visible = (el: Element) => {
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    return s.display !== 'none' && s.visibility !== 'hidden' && (r.width > 0 || r.height > 0);
  };
  const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const byIds = (ids: string | null) => (ids ?? '').split(/\s+/).filter(Boolean).map((id) => text(document.getElementById(id))).join(' ').trim();

  // html-has-lang, document-title, page-has-heading-one
  if (!document.documentElement.lang) out.push('html-has-lang: <html> has no lang');
  if (!document.title.trim()) out.push('document-title: the page has no title');
  if (document.querySelectorAll('h1').length === 0) out.push('page-has-heading-one: no <h1>');

  // duplicate-id
  const seen = new Set<string>();
  for (const el of Array.from(document.querySelectorAll('[id]'))) {
    if (seen.has(el.id)) out.push(`duplicate-id: ${el.id}`);
    seen.add(el.id);
  }

  // label: every form field has an accessible name
  for (const el of Array.from(document.querySelectorAll('input, select, textarea'))) {
    const input = el as HTMLInputElement;
    if (input.type === 'hidden') continue;
    const named = input.labels?.length || input.getAttribute('aria-label')?.trim() || byIds(input.getAttribute('aria-labelledby')) || input.title.trim();
    if (!named) out.push(`label: ${describe(el)} has no label`);
  }

  // button-name, link-name
  for (const el of Array.from(document.querySelectorAll('button, a[href], [role="button"]'))) {
    const name = text(el) || el.getAttribute('aria-label')?.trim() || byIds(el.getAttribute('aria-labelledby')) || (el as HTMLElement).title?.trim();
    if (!name) out.push(`${el.tagName === 'A' ? 'link' : 'button'}-name: ${describe(el)} has no accessible name`);
  }

  // svg-img-alt / image-alt
  for (const el of Array.from(document.querySelectorAll('img'))) if (!el.hasAttribute('alt')) out.push(`image-alt: ${describe(el)}`);
  for (const el of Array.from(document.querySelectorAll('svg[role="img"]'))) if (!el.getAttribute('aria-label') && !el.querySelector('title')) out.push(`svg-img-alt: ${describe(el)}`);

  // pattern attributes must compile under the browser's `v` flag (else the check is silently off)
  for (const el of Array.from(document.querySelectorAll('input[pattern]'))) {
    try {
      new RegExp(`^(?:${el.getAttribute('pattern')})$`, 'v');
    } catch {
      out.push(`pattern-valid: ${describe(el)} pattern is invalid under the v flag`);
    }
  }

  // color-contrast (WCAG AA): text against the first opaque background up the tree
  const parse = (c: string): [number, number, number, number] | null => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1]!.split(/[,\s/]+/).filter(Boolean).map(Number);
    return [p[0]!, p[1]!, p[2]!, p.length > 3 ? p[3]! : 1];
  };
  const lum = ([r, g, b]: number[]) => {
    const f = (v: number) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
  };
  const backgroundOf = (el: Element | null): [number, number, number] | null => {
    let layers: [number, number, number, number][] = [];
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.backgroundImage !== 'none') return null; // gradients and pictures: not judged here
      const c = parse(s.backgroundColor);
      if (c && c[3] > 0) {
        layers.push(c);
        if (c[3] >= 1) break;
      }
    }
    if (layers.length === 0 || layers[layers.length - 1]![3] < 1) return null; // transparent to the page (the overlay)
    layers = layers.reverse();
    let [r, g, b] = layers[0]!;
    for (const [lr, lg, lb, a] of layers.slice(1)) [r, g, b] = [lr * a + r * (1 - a), lg * a + g * (1 - a), lb * a + b * (1 - a)];
    return [r, g, b];
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const checked = new Set<Element>();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || checked.has(el) || !n.textContent?.trim() || !visible(el)) continue;
    if (el.closest('svg, .sr-only, option, [aria-hidden="true"]') || (el.closest('button, .btn') as HTMLButtonElement | null)?.disabled) continue;
    checked.add(el);
    const s = getComputedStyle(el);
    const fg = parse(s.color);
    const bg = backgroundOf(el);
    if (!fg || !bg || parseFloat(s.opacity) < 1) continue;
    const mixed = [fg[0] * fg[3] + bg[0] * (1 - fg[3]), fg[1] * fg[3] + bg[1] * (1 - fg[3]), fg[2] * fg[3] + bg[2] * (1 - fg[3])];
    const [hi, lo] = [lum(mixed), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi! + 0.05) / (lo! + 0.05);
    const size = parseFloat(s.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) out.push(`color-contrast: ${describe(el)} "${text(el).slice(0, 30)}" ${ratio.toFixed(2)}:1`);
  }
  return out;
}
