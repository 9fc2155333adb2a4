import { html } from 'hono/html';
import { layout, type Html } from './layout.ts';
import { messages, type Lang } from '../i18n.ts';

export function loginPage(next: string, error: string | null, lang: Lang = 'en'): Html {
  const m = messages(lang);
  return layout({
    lang,
    title: m.loginTitle,
    bodyClass: 'page-login',
    body: html`<main class="login">
  <form method="post" action="/login" class="card login-card">
    <h1>${m.loginHeading}</h1>
    <p class="muted">${m.loginHelp}</p>
    ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
    <input type="hidden" name="next" value="${next}">
    <label>${m.loginUser} <input name="username" autocomplete="username" required autofocus></label>
    <label>${m.loginPassword} <input name="password" type="password" autocomplete="current-password" required></label>
    <button class="btn primary" type="submit">${m.loginButton}</button>
    <p class="muted"><a href="/">${m.loginBack}</a></p>
  </form>
</main>`,
  });
}
