import { h, type Html } from '../html.ts';

export interface LayoutOptions {
  title: string;
  body: Html;
  bodyClass?: string;
  scripts?: string[];
  csrf?: string | null;
  nav?: boolean;
  user?: string | null;
}

export function layout(o: LayoutOptions): string {
  return (
    '<!doctype html>' +
    h`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${o.csrf ? h`<meta name="csrf-token" content="${o.csrf}">` : ''}
<title>${o.title}</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/panel.css">
</head>
<body class="${o.bodyClass ?? ''}">
${o.nav ? nav(o.user ?? null, o.csrf ?? null) : ''}
${o.body}
<div id="conn" class="conn-badge" hidden>reconnecting…</div>
${(o.scripts ?? []).map((s) => h`<script type="module" src="/static/${s}"></script>`)}
</body>
</html>`.value
  );
}

function nav(user: string | null, csrf: string | null): Html {
  return h`<nav class="topnav">
  <a class="brand" href="/">Billiards</a>
  <a href="/">Overview</a>
  <a href="/league">League</a>
  <a href="/league/results">Results</a>
  ${user ? h`<a href="/league/admin">League admin</a>` : ''}
  <span class="spacer"></span>
  ${user ? h`<span class="who">${user}</span><form method="post" action="/logout" class="inline"><input type="hidden" name="csrf" value="${csrf ?? ''}"><button type="submit" class="link">Log out</button></form>` : h`<a href="/login">Log in</a>`}
</nav>`;
}
