/** MQTT topic filter matching (`+` one level, `#` the rest), for authorisation. */
export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length) return false;
    if (f[i] !== '+' && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}

/** Whether every topic a subscription filter can match is allowed by one of the patterns. */
export function filterAllowed(patterns: readonly string[], filter: string): boolean {
  return patterns.some((p) => p === '#' || p === filter || (!filter.includes('+') && !filter.includes('#') && topicMatches(p, filter)) || coversFilter(p, filter));
}

function coversFilter(pattern: string, filter: string): boolean {
  const p = pattern.split('/');
  const f = filter.split('/');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '#') return true;
    if (i >= f.length) return false;
    if (f[i] === '#') return false;
    if (p[i] !== '+' && p[i] !== f[i]) return false;
  }
  return p.length === f.length;
}
