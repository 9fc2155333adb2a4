import { h } from '../html.ts';
import { layout } from './layout.ts';

export function loginPage(next: string, error: string | null): string {
  return layout({
    title: 'Log in · Billiards',
    bodyClass: 'page-login',
    body: h`<main class="login">
  <form method="post" action="/login" class="card login-card">
    <h1>Venue login</h1>
    <p class="muted">The referee console and the hardware page need the venue credentials. Scoreboards need none.</p>
    ${error ? h`<p class="error" role="alert">${error}</p>` : ''}
    <input type="hidden" name="next" value="${next}">
    <label>User name <input name="username" autocomplete="username" required autofocus></label>
    <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
    <button class="btn primary" type="submit">Log in</button>
    <p class="muted"><a href="/">← Venue overview and scoreboards</a></p>
  </form>
</main>`,
  });
}
