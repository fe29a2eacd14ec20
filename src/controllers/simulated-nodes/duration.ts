/** Go's time.ParseDuration for the simulated nodes' configuration (unsigned; result in ms). */
const UNITS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Milliseconds of a Go duration string (`1h2m3.5s`, `300ms`; no sign); undefined when malformed. */
export function parseGoDuration(text: string): number | undefined {
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let ms = 0;
  let end = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    ms += Number(m[1]) * (UNITS[m[2]!] ?? 0);
    end = re.lastIndex;
  }
  if (text === '0') return 0;
  return end === text.length && end > 0 ? ms : undefined;
}
