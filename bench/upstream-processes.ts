// The chat bench's other processes, each on its own event loop (as in production, where the model server and
// the gateway are separate processes; sharing the load generator's loop would add its noise to "direct"):
// - `fake`: the fake OpenAI server of the tests, answering every request with one fixed text;
// - `bare-proxy`: the floor of any Node gateway on this machine: node:http in, undici to the fake, the answer
//   piped back untouched (no auth, no parsing, no governance, no record).
// Run as `node --import tsx bench/upstream-processes.ts fake|bare-proxy [upstream-url]`; prints its URL.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, request } from "undici";
import { startFakeOpenAi } from "../test/helpers/fake-openai.ts";

export interface BenchProcess {
  url: string;
  stop(): Promise<void>;
}

/** Starts one of the processes above and waits for its URL. */
export async function startBenchProcess(kind: "fake" | "bare-proxy", upstream?: string): Promise<BenchProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), kind, ...(upstream ? [upstream] : [])], { cwd: path.resolve("."), stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on("exit", (code) => reject(new Error(`${kind} exited with ${code}: ${out}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

async function main(kind: string, upstream?: string): Promise<void> {
  if (kind === "fake") {
    const fake = await startFakeOpenAi();
    fake.script({ text: "The office wifi password rotates every Monday at 9am." });
    // The fake keeps every request for the tests' assertions; a bench sends hundreds of thousands.
    setInterval(() => fake.requests.splice(0), 1000).unref();
    console.log(`fake listening on ${fake.url}`);
    return;
  }
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 64 });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      request(`${upstream}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: Buffer.concat(chunks), dispatcher: agent }).then(
        (answer) => {
          res.writeHead(answer.statusCode, { "content-type": String(answer.headers["content-type"] ?? "application/json") });
          answer.body.pipe(res);
        },
        () => res.writeHead(502).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  console.log(`bare-proxy listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv[2]!, process.argv[3]);
