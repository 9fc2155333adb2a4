/**
 * Prometheus text exposition for `/metrics`: counters, gauges and one latency histogram,
 * without a client library (the format is small and stable).
 */
export class Histogram {
  private readonly counts: number[];
  private sum = 0;
  private count = 0;

  constructor(readonly buckets: readonly number[]) {
    this.counts = buckets.map(() => 0);
  }

  observe(value: number): void {
    this.sum += value;
    this.count += 1;
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) this.counts[i]! += 1;
  }

  render(name: string, help: string): string {
    const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} histogram`];
    this.buckets.forEach((b, i) => lines.push(`${name}_bucket{le="${b}"} ${this.counts[i]}`));
    lines.push(`${name}_bucket{le="+Inf"} ${this.count}`, `${name}_sum ${this.sum}`, `${name}_count ${this.count}`);
    return lines.join('\n');
  }
}

export interface Sample {
  labels?: Record<string, string>;
  value: number;
}

export function metric(name: string, type: 'counter' | 'gauge', help: string, samples: readonly Sample[]): string {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`];
  for (const s of samples) {
    const labels = s.labels ? `{${Object.entries(s.labels).map(([k, v]) => `${k}="${v.replace(/["\\\n]/g, '_')}"`).join(',')}}` : '';
    lines.push(`${name}${labels} ${s.value}`);
  }
  return lines.join('\n');
}

/** The process's memory, under the names Prometheus's Node.js client uses: a Pi's hub is watched remotely. */
export function processMetrics(): string[] {
  const m = process.memoryUsage();
  return [
    metric('process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes', [{ value: m.rss }]),
    metric('nodejs_heap_size_total_bytes', 'gauge', 'Process heap size from Node.js in bytes', [{ value: m.heapTotal }]),
    metric('nodejs_heap_size_used_bytes', 'gauge', 'Process heap size used from Node.js in bytes', [{ value: m.heapUsed }]),
    metric('nodejs_external_memory_bytes', 'gauge', 'Node.js external memory size in bytes (buffers, SQLite is not counted)', [{ value: m.external }]),
  ];
}
