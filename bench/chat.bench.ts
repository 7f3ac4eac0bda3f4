// Chat completions through a configured upstream: the same fake OpenAI server (test/helpers/fake-openai.ts,
// in this process) called directly and through `svc serve` (SVC_MODEL_BASE_URL pointing at it), in the same
// run, one request at a time, direct and through interleaved. Targets: added p50 <= 1 ms, added p99 <= 3 ms,
// streamed time to first token added <= 2 ms.
import { performance } from "node:perf_hooks";
import { startFakeOpenAi } from "../test/helpers/fake-openai.ts";
import { startBenchServer } from "./server.ts";

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/** Whole answer (non-streamed) or time to the first content delta (streamed), in ms. */
async function timed(url: string, headers: Record<string, string>, body: Record<string, unknown>): Promise<number> {
  const start = performance.now();
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  if (body.stream !== true) {
    await response.text();
    return performance.now() - start;
  }
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let first: number | undefined;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (first === undefined && /"content":"[^"]/.test(text)) first = performance.now() - start;
  }
  if (first === undefined) throw new Error(`no content from ${url}`);
  return first;
}

export async function chatBench(duration: number, rounds: number): Promise<string> {
  const fake = await startFakeOpenAi();
  fake.script({ text: "The office wifi password rotates every Monday at 9am." });
  const server = await startBenchServer({ SVC_MODEL_BASE_URL: `${fake.url}/v1`, SVC_MODEL_NAME: "fake-model" });
  try {
    const n = Math.max(200, Math.round(duration * rounds * 20));
    const direct = `${fake.url}/v1/chat/completions`;
    const through = `${server.url}/api/v1/svc/chat/completions`;
    const auth = { authorization: `Bearer ${server.key}` };
    const messages = [{ role: "user", content: "When does the office wifi password rotate?" }];
    const results: Record<string, { direct: number[]; through: number[] }> = { json: { direct: [], through: [] }, stream: { direct: [], through: [] } };
    for (const mode of ["json", "stream"] as const) {
      const body = { model: "fake-model", messages, stream: mode === "stream" };
      for (let i = 0; i < 30; i++) {
        await timed(direct, {}, body);
        await timed(through, auth, body);
      }
      for (let i = 0; i < n; i++) {
        results[mode]!.direct.push(await timed(direct, {}, body));
        results[mode]!.through.push(await timed(through, auth, body));
      }
    }
    const row = (label: string, d: number[], t: number[], p: number) => `| ${label} | ${pct(d, p).toFixed(2)} | ${pct(t, p).toFixed(2)} | ${(pct(t, p) - pct(d, p)).toFixed(2)} |`;
    const added = (mode: "json" | "stream", p: number) => pct(results[mode]!.through, p) - pct(results[mode]!.direct, p);
    const verdict = (value: number, target: number) => `${value.toFixed(2)} ms (target <= ${target} ms: ${value <= target ? "met" : "MISSED"})`;
    return [
      `### Chat completions through the service vs the fake upstream directly (${n} sequential requests each, interleaved; memory on, each answer recorded as an intent)`,
      "",
      "| Measure | direct ms | through svc ms | added ms |",
      "|---|---|---|---|",
      row("non-streamed p50", results.json!.direct, results.json!.through, 50),
      row("non-streamed p99", results.json!.direct, results.json!.through, 99),
      row("streamed time to first token p50", results.stream!.direct, results.stream!.through, 50),
      row("streamed time to first token p99", results.stream!.direct, results.stream!.through, 99),
      "",
      `Added p50: ${verdict(added("json", 50), 1)}; added p99: ${verdict(added("json", 99), 3)}; time to first token added (p50): ${verdict(added("stream", 50), 2)}.`,
    ].join("\n");
  } finally {
    await server.stop();
    await fake.close();
  }
}
