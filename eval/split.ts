// The tune/holdout rule shared by the team's set and the generated set (docs/eval.md). Kept apart from
// sets.ts so the generator, which must not load the service's parser, can use it too.
import { createHash } from "node:crypto";

/**
 * The part of a set the engine may be tuned on, and the part it is only measured on. Read holdout results
 * as aggregate numbers, never case by case.
 */
export type Split = "tune" | "holdout";

/**
 * About 30% of keys go to holdout, by a hash of the key alone, so a case (or every surface form of one
 * generated meaning) stays in its split when others are added or removed.
 */
export function splitOf(key: string): Split {
  return createHash("sha256").update(`split:${key}`).digest().readUInt32BE(0) % 10 < 3 ? "holdout" : "tune";
}
