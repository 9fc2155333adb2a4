import { html, raw } from 'hono/html';
import { LANGS, messages, type Lang } from '../i18n.ts';

/**
 * What hono/html's `html` tag returns: interpolations escaped unless they are themselves
 * `html`/`raw`; null, undefined and booleans render nothing; arrays are joined. It is a
 * promise only when a promise is interpolated, which no page does (htmlText checks).
 */
export type Html = ReturnType<typeof html>;

/** A page part as a plain string (an SSE payload, a test): refuses the async form no page uses. */
export function htmlText(part: Html): string {
  if (part instanceof Promise) throw new Error('web panel: a page part rendered asynchronously');
  return part.toString();
}

/** JSON for a `<script type="application/json">` block: `<` escaped so it cannot close the tag. */
export function jsonBlock(id: string, value: unknown): Html {
  return html`<script type="application/json" id="${id}">${raw(JSON.stringify(value).replace(/</g, '\\u003c'))}</script>`;
}

export interface LayoutOptions {
  title: string;
  body: Html;
  bodyClass?: string;
  scripts?: string[];
  csrf?: string | null;
  nav?: boolean;
  user?: string | null;
  lang?: Lang;
  /** The page's own path and query, for the language switch's links. */
  path?: string;
}

/** Links to this page in each language (`?lang=`), the current one marked. */
export function langSwitch(lang: Lang, path: string): Html {
  const url = new URL(path, 'http://x');
  return html`<span class="lang-switch" role="group" aria-label="${messages(lang).switchTo}">${LANGS.map((l) => {
    url.searchParams.set('lang', l);
    return html`<a href="${url.pathname}${url.search}" lang="${l}" hreflang="${l}"${l === lang ? html` aria-current="true"` : ''}>${messages(l).lang}</a>`;
  })}</span>`;
}

export function layout(o: LayoutOptions): Html {
  return html`<!doctype html><html lang="${o.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${o.csrf ? html`<meta name="csrf-token" content="${o.csrf}">` : ''}
<title>${o.title}</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/panel.css">
</head>
<body class="${o.bodyClass ?? ''}">
${o.nav ? nav(o.user ?? null, o.csrf ?? null, o.lang ?? 'en', o.path ?? '/') : ''}
${o.body}
<div id="conn" class="conn-badge" hidden>${messages(o.lang ?? 'en').reconnecting}</div>
${(o.scripts ?? []).map((s) => html`<script type="module" src="/static/${s}"></script>`)}
</body>
</html>`;
}

function nav(user: string | null, csrf: string | null, lang: Lang, path: string): Html {
  const m = messages(lang);
  return html`<nav class="topnav" aria-label="${m.brand}">
  <a class="brand" href="/">${m.brand}</a>
  <a href="/">${m.navOverview}</a>
  <a href="/league">${m.navLeague}</a>
  <a href="/league/results">${m.navResults}</a>
  ${user ? html`<a href="/league/admin">${m.navAdmin}</a>` : ''}
  <span class="spacer"></span>
  ${langSwitch(lang, path)}
  ${user ? html`<span class="who">${user}</span><form method="post" action="/logout" class="inline"><input type="hidden" name="csrf" value="${csrf ?? ''}"><button type="submit" class="link">${m.logOut}</button></form>` : html`<a href="/login">${m.logIn}</a>`}
</nav>`;
}
