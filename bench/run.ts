// `npm run bench`: every benchmark, each next to a baseline measured in the same run. BENCH_DURATION
// (seconds per measurement, default 5), BENCH_ROUNDS (alternating rounds, default 3) and BENCH_ONLY (a
// benchmark's name) shape a run.
import os from "node:os";
import { healthBench } from "./health.bench.ts";
import { memoryBench } from "./memory.bench.ts";
import { policiesBench } from "./policies.bench.ts";
import { intentBench } from "./intent.bench.ts";
import { toolsBench } from "./tools.bench.ts";
import { chatBench } from "./chat.bench.ts";
import { observabilityBench } from "./observability.bench.ts";
import { learningBench } from "./learning.bench.ts";
import { auditBench } from "./audit.bench.ts";
import { webhooksBench } from "./webhooks.bench.ts";

const benches: Record<string, (duration: number, rounds: number) => Promise<string>> = {
  health: healthBench,
  memory: memoryBench,
  policies: policiesBench,
  intent: intentBench,
  tools: toolsBench,
  chat: chatBench,
  observability: observabilityBench,
  learning: learningBench,
  audit: auditBench,
  webhooks: webhooksBench,
};

const duration = Number(process.env.BENCH_DURATION ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const only = process.env.BENCH_ONLY;

console.log(`# Benchmarks ${new Date().toISOString()}`);
console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}\n`);
for (const [name, run] of Object.entries(benches)) {
  if (only && only !== name) continue;
  console.log(await run(duration, rounds));
  console.log("");
}
