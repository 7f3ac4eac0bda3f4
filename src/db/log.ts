// Database errors as they may be logged. Drizzle wraps a failed query in an error whose message and
// `params` carry every bound value (a key_data being sealed, a memory text, a typed secret), and the
// driver's error repeats values in its message and detail (`invalid input syntax for type integer: "…"`,
// `Key (name)=(…) already exists`). A log keeps the SQL text, the PostgreSQL error code and the message
// with its quoted values masked; never the parameters.
import pino from "pino";

interface QueryError {
  query: string;
  params: unknown[];
  cause?: unknown;
}

function isQueryError(value: unknown): value is QueryError & Error {
  return value instanceof Error && typeof (value as Partial<QueryError>).query === "string" && Array.isArray((value as Partial<QueryError>).params);
}

/** The database error's own fields that name no value (code, constraint, table …). */
function driverFields(cause: unknown): Record<string, unknown> {
  if (!cause || typeof cause !== "object") return {};
  const c = cause as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of ["code", "severity", "constraint", "table", "column", "schema", "routine"]) if (typeof c[field] === "string") out[field] = c[field];
  if (typeof c.message === "string") out.db_message = maskQuoted(c.message);
  return out;
}

const maskQuoted = (text: string): string => text.replace(/"[^"]*"|'[^']*'|\([^()]*\)=\([^()]*\)/g, (m) => (m.startsWith("(") ? "(…)=(…)" : `${m[0]}…${m[0]}`));

/**
 * The error to log in place of `error`: when a failed query is in its cause chain, an Error with the SQL
 * text and the driver's code and masked message, without parameters or the original chain; else `error`.
 */
export function loggableError(error: unknown): unknown {
  let current: unknown = error;
  for (let i = 0; i < 8 && current; i++) {
    if (isQueryError(current)) {
      const safe = new Error(`Failed query: ${current.query}`);
      safe.name = "DatabaseQueryError";
      safe.stack = `${safe.name}: ${safe.message}`;
      return Object.assign(safe, { query: current.query, param_count: current.params.length, ...driverFields(current.cause) });
    }
    current = (current as { cause?: unknown }).cause;
  }
  return error;
}

/** pino's `err` serializer over loggableError, for the loggers this service makes. */
export const errSerializer = (error: Error): pino.SerializedError => pino.stdSerializers.err(loggableError(error) as Error);
