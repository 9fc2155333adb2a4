import { Match } from '../rules/match.ts';
import type { MatchView } from '../rules/view.ts';
import { decodeLine, isSkippable } from './decode.ts';

export type ReplayResult = { ok: true; match: Match; view: MatchView } | { ok: false; line: number; error: string };

/**
 * Replays a whole match log (CONTRACT §2). The first line that breaks the format or the
 * protocol stops the replay with its line number; the caller shows nothing else.
 */
export function replayLog(text: string): ReplayResult {
  const lines = text.split(/\r?\n/);
  let match: Match | null = null;
  for (const [i, line] of lines.entries()) {
    const lineNo = i + 1;
    if (isSkippable(line)) continue;
    const decoded = decodeLine(line);
    if (!decoded.ok) return { ok: false, line: lineNo, error: decoded.error };
    const entry = decoded.value;
    if (entry.kind === 'match') {
      if (match) return { ok: false, line: lineNo, error: 'a second "match" line: one log holds one match' };
      const created = Match.create(entry.match);
      if (!created.ok) return { ok: false, line: lineNo, error: created.error };
      match = created.value;
      continue;
    }
    if (!match) return { ok: false, line: lineNo, error: 'the first line must be the "match" line' };
    const applied = match.apply(entry);
    if (!applied.ok) return { ok: false, line: lineNo, error: applied.error };
  }
  if (!match) return { ok: false, line: lines.length, error: 'the log holds no "match" line' };
  return { ok: true, match, view: match.view() };
}
