/**
 * The HTTP request counter and latency histogram, kept as plain numbers per (route, method, status)
 * and written in the Prometheus text format when scraped. Every request passes through here, so
 * recording one is a map lookup and two additions (a general metrics library hashes the labels of
 * each observation, which showed up in the status-poll profile).
 */
export class RequestMetrics {
  private readonly series = new Map<string, { labels: string; count: number; sum: number; buckets: Float64Array }>();

  constructor(
    private readonly names: { total: string; duration: string },
    private readonly help: { total: string; duration: string },
    private readonly upperBounds: readonly number[],
  ) {}

  observe(route: string, method: string, status: number, seconds: number) {
    const id = `${method} ${status} ${route}`;
    let s = this.series.get(id);
    if (!s) {
      s = { labels: `route="${escapeLabel(route)}",method="${escapeLabel(method)}",status="${status}"`, count: 0, sum: 0, buckets: new Float64Array(this.upperBounds.length) };
      this.series.set(id, s);
    }
    s.count++;
    s.sum += seconds;
    for (let i = 0; i < this.upperBounds.length; i++) {
      if (seconds <= this.upperBounds[i]!) {
        s.buckets[i]!++;
        break;
      }
    }
  }

  /** The two metric families in the Prometheus text exposition format (buckets cumulative). */
  text(): string {
    const { total, duration } = this.names;
    const lines = [`# HELP ${total} ${this.help.total}`, `# TYPE ${total} counter`];
    for (const s of this.series.values()) lines.push(`${total}{${s.labels}} ${s.count}`);
    lines.push(`# HELP ${duration} ${this.help.duration}`, `# TYPE ${duration} histogram`);
    for (const s of this.series.values()) {
      let cumulative = 0;
      this.upperBounds.forEach((le, i) => {
        cumulative += s.buckets[i]!;
        lines.push(`${duration}_bucket{le="${le}",${s.labels}} ${cumulative}`);
      });
      lines.push(`${duration}_bucket{le="+Inf",${s.labels}} ${s.count}`, `${duration}_sum{${s.labels}} ${s.sum}`, `${duration}_count{${s.labels}} ${s.count}`);
    }
    return `${lines.join('\n')}\n`;
  }
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
