/** A reader of the Prometheus text format (0.0.4) for tests: families by name, each with its samples. */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
export interface Family {
  type: string;
  help: string;
  samples: Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
/** Suffixes a histogram's or summary's samples add to the family name. */
const SUFFIXES = ['_bucket', '_sum', '_count'];

/** Throws on a line that is not a comment, a blank, or a sample of a declared family. */
export function parsePrometheus(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const meta = line.match(/^# (HELP|TYPE) (\S+) (.*)$/);
    if (meta) {
      const [, kind, name, rest] = meta as unknown as [string, string, string, string];
      const f = families.get(name) ?? { type: 'untyped', help: '', samples: [] };
      if (kind === 'TYPE') f.type = rest;
      else f.help = rest;
      families.set(name, f);
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = line.match(SAMPLE);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const [, name, labelText, raw] = m as unknown as [string, string, string | undefined, string];
    const labels: Record<string, string> = {};
    for (const l of (labelText ?? '').matchAll(LABEL)) labels[l[1]!] = l[2]!;
    const value = raw === '+Inf' ? Number.POSITIVE_INFINITY : Number(raw);
    if (Number.isNaN(value) && raw !== 'NaN') throw new Error(`not a number: ${line}`);
    const family =
      families.get(name) ?? families.get(SUFFIXES.reduce((n, s) => (n.endsWith(s) ? n.slice(0, -s.length) : n), name));
    if (!family) throw new Error(`sample of an undeclared family: ${line}`);
    family.samples.push({ name, labels, value });
  }
  return families;
}

/** The value of the one sample of `name` whose labels include `labels`. */
export function sampleValue(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const f of families.values()) {
    const s = f.samples.find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
    if (s) return s.value;
  }
  return undefined;
}
