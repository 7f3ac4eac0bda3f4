// HTTP load measurements with autocannon. On a small shared machine one run drifts with its neighbours,
// so a comparison alternates baseline and subject over several rounds and reports the medians.
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

export interface LoadResult {
  label: string;
  rps: number;
  /** Server CPU time (user + system) per request, µs, when the server's pid is known. */
  cpuUs?: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** CPU ticks (1/100 s) a process has used so far, from /proc (Linux). */
function cpuTicks(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

export async function load(label: string, options: autocannon.Options, serverPid?: number): Promise<LoadResult> {
  const before = serverPid ? cpuTicks(serverPid) : undefined;
  const result = await autocannon({ connections: 50, duration: 10, ...options });
  const after = serverPid ? cpuTicks(serverPid) : undefined;
  return {
    label,
    rps: Math.round(result.requests.average),
    cpuUs: before !== undefined && after !== undefined && result.requests.total > 0 ? ((after - before) * 10_000) / result.requests.total : undefined,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface Subject {
  label: string;
  options: autocannon.Options;
}

/** Warms every subject up, then runs them in turn for `rounds` rounds; medians per subject. */
export async function compare(subjects: Subject[], rounds: number, duration: number, serverPid?: number): Promise<LoadResult[]> {
  for (const s of subjects) await load(`warm-up ${s.label}`, { ...s.options, duration: 3 });
  const runs = new Map<string, LoadResult[]>(subjects.map((s) => [s.label, []]));
  for (let round = 0; round < rounds; round++) {
    for (const s of subjects) runs.get(s.label)!.push(await load(s.label, { ...s.options, duration }, serverPid));
  }
  return subjects.map((s) => {
    const list = runs.get(s.label)!;
    return {
      label: s.label,
      rps: Math.round(median(list.map((r) => r.rps))),
      cpuUs: list.every((r) => r.cpuUs !== undefined) ? median(list.map((r) => r.cpuUs!)) : undefined,
      p50: median(list.map((r) => r.p50)),
      p99: median(list.map((r) => r.p99)),
      errors: list.reduce((n, r) => n + r.errors, 0),
      non2xx: list.reduce((n, r) => n + r.non2xx, 0),
    };
  });
}

export function table(rows: LoadResult[]): string {
  const lines = ["| route | req/s | p50 ms | p99 ms | server CPU µs/req | errors | non-2xx |", "|---|---:|---:|---:|---:|---:|---:|"];
  for (const r of rows) {
    lines.push(`| ${r.label} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.cpuUs === undefined ? "n/a" : r.cpuUs.toFixed(1)} | ${r.errors} | ${r.non2xx} |`);
  }
  return lines.join("\n");
}
