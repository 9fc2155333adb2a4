/**
 * The words a person sees or hears on the page (text, titles, labels, placeholders, alt and
 * aria text), for the untranslated-string check. Runs in the browser (page.evaluate): keep
 * it self-contained.
 */
export function userVisibleText(): string {
  const parts: string[] = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('script, style, [hidden]')) continue;
    parts.push(n.textContent ?? '');
  }
  for (const el of Array.from(document.querySelectorAll('[title], [aria-label], [placeholder], [alt]'))) {
    for (const attr of ['title', 'aria-label', 'placeholder', 'alt']) {
      const v = el.getAttribute(attr);
      if (v) parts.push(v);
    }
  }
  return parts.join(' \n ');
}

/** Latin words of three letters or more that are not names the venue gave (players, tables) nor codes. */
export function englishWords(text: string, allowed: readonly string[]): string[] {
  const allow = new Set(allowed.map((w) => w.toLowerCase()));
  const words = text.match(/[A-Za-z][A-Za-z'’]{2,}/g) ?? [];
  return [...new Set(words.filter((w) => !allow.has(w.toLowerCase())))];
}
