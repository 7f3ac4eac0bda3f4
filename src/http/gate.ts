// X-Svc-Gate: on every gated answer (intent, tool invoke, chat), what governance let happen. `ok` ran or may
// run; `blocked` did not run (a policy, or a missing connection); `escalate` waits for a human;
// `needs_input` waits for the caller's answer.
export const GATE_HEADER = "x-svc-gate";
export type GateValue = "ok" | "blocked" | "escalate" | "needs_input";
