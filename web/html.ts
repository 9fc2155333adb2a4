/** A tiny escaping template: interpolations are escaped unless they are already `Html`. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function part(p: Part): string {
  if (p === null || p === undefined || p === false) return '';
  if (p instanceof Html) return p.value;
  if (Array.isArray(p)) return (p as readonly Part[]).map(part).join('');
  return escape(String(p));
}

export function h(strings: TemplateStringsArray, ...parts: Part[]): Html {
  let out = strings[0]!;
  parts.forEach((p, i) => {
    out += part(p) + strings[i + 1]!;
  });
  return new Html(out);
}

export const raw = (text: string): Html => new Html(text);

/** JSON for a `<script type="application/json">` block: `<` escaped so it cannot close the tag. */
export function jsonBlock(id: string, value: unknown): Html {
  return raw(`<script type="application/json" id="${escape(id)}">${JSON.stringify(value).replace(/</g, '\\u003c')}</script>`);
}

export function fmtNumber(n: number, digits = 0): string {
  return digits > 0 ? n.toFixed(digits) : String(n);
}
