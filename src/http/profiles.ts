// Response profiles, asked for in Accept: `application/json; profile=lean` (no trace, only trace_id),
// `profile=audit` (the trace plus the gate decisions), none or `full` (the whole trace). The parameter may
// be quoted (`profile="lean"`, as the SDKs send it) or not.
export type Profile = "full" | "lean" | "audit";

export function profileOf(accept: string | undefined): Profile {
  if (!accept) return "full";
  const match = /(?:^|;)\s*profile\s*=\s*"?([a-z]+)"?/i.exec(accept);
  const value = match?.[1]?.toLowerCase();
  return value === "lean" || value === "audit" ? value : "full";
}

/** True when the client asked for Server-Sent Events. */
export function wantsEventStream(accept: string | undefined): boolean {
  return Boolean(accept && /\btext\/event-stream\b/i.test(accept));
}
