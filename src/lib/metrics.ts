/**
 * A minimal Prometheus registry: labelled counters incremented in code and gauges read at scrape time. Kept by
 * hand because the needs are small and the text format is stable (exposition format 0.0.4).
 */

type Labels = Record<string, string>;

interface CounterFamily {
  kind: "counter";
  help: string;
  values: Map<string, { labels: Labels; value: number }>;
}

interface GaugeFamily {
  kind: "gauge";
  help: string;
  collect: () => Samples | Promise<Samples>;
}

type Samples = Array<{ labels?: Labels; value: number }>;

export interface Metrics {
  inc(name: string, labels?: Labels, by?: number): void;
  counter(name: string, help: string): void;
  /** A gauge read at scrape time (from the store, possibly). */
  gauge(name: string, help: string, collect: () => Samples | Promise<Samples>): void;
  render(): Promise<string>;
}

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
const renderLabels = (labels: Labels = {}) => {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return parts.length ? `{${parts.join(",")}}` : "";
};

export function createMetrics(): Metrics {
  const families = new Map<string, CounterFamily | GaugeFamily>();
  return {
    counter(name, help) {
      if (!families.has(name)) families.set(name, { kind: "counter", help, values: new Map() });
    },
    inc(name, labels = {}, by = 1) {
      const family = families.get(name);
      if (family?.kind !== "counter") throw new Error(`unregistered counter ${name}`);
      const key = renderLabels(labels);
      const entry = family.values.get(key);
      if (entry) entry.value += by;
      else family.values.set(key, { labels, value: by });
    },
    gauge(name, help, collect) {
      families.set(name, { kind: "gauge", help, collect });
    },
    async render() {
      const lines: string[] = [];
      for (const [name, family] of families) {
        lines.push(`# HELP ${name} ${family.help}`, `# TYPE ${name} ${family.kind}`);
        const samples = family.kind === "counter" ? [...family.values.values()] : await family.collect();
        for (const sample of samples) lines.push(`${name}${renderLabels(sample.labels)} ${sample.value}`);
      }
      return `${lines.join("\n")}\n`;
    },
  };
}
