import { h, type Html } from '../html.ts';
import { LANGS, messages, type Lang } from '../i18n.ts';

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
  return h`<span class="lang-switch" role="group" aria-label="${messages(lang).switchTo}">${LANGS.map((l) => {
    url.searchParams.set('lang', l);
    return h`<a href="${url.pathname}${url.search}" lang="${l}" hreflang="${l}"${l === lang ? h` aria-current="true"` : ''}>${messages(l).lang}</a>`;
  })}</span>`;
}

export function layout(o: LayoutOptions): string {
  return (
    '<!doctype html>' +
    h`<html lang="${o.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${o.csrf ? h`<meta name="csrf-token" content="${o.csrf}">` : ''}
<title>${o.title}</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/panel.css">
</head>
<body class="${o.bodyClass ?? ''}">
${o.nav ? nav(o.user ?? null, o.csrf ?? null, o.lang ?? 'en', o.path ?? '/') : ''}
${o.body}
<div id="conn" class="conn-badge" hidden>${messages(o.lang ?? 'en').reconnecting}</div>
${(o.scripts ?? []).map((s) => h`<script type="module" src="/static/${s}"></script>`)}
</body>
</html>`.value
  );
}

function nav(user: string | null, csrf: string | null, lang: Lang, path: string): Html {
  const m = messages(lang);
  return h`<nav class="topnav" aria-label="${m.brand}">
  <a class="brand" href="/">${m.brand}</a>
  <a href="/">${m.navOverview}</a>
  <a href="/league">${m.navLeague}</a>
  <a href="/league/results">${m.navResults}</a>
  ${user ? h`<a href="/league/admin">${m.navAdmin}</a>` : ''}
  <span class="spacer"></span>
  ${langSwitch(lang, path)}
  ${user ? h`<span class="who">${user}</span><form method="post" action="/logout" class="inline"><input type="hidden" name="csrf" value="${csrf ?? ''}"><button type="submit" class="link">${m.logOut}</button></form>` : h`<a href="/login">${m.logIn}</a>`}
</nav>`;
}
