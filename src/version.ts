import { readFileSync } from "node:fs";

/** The package version, reported by /health and the OpenAPI document. */
export const VERSION: string = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
