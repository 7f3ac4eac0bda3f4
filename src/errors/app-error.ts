import { CATALOG, type ErrorCode } from "./catalog.ts";

export interface ErrorDetail {
  field: string;
  message: string;
}

export interface AppErrorOptions {
  /** Replaces the catalog's message when the situation allows a more precise one. */
  message?: string;
  hint?: string;
  details?: ErrorDetail[];
  /** Seconds; written as the Retry-After header and `error.retry_after`. */
  retryAfter?: number;
  /** Extra fields placed inside `error` (e.g. `policy_id`, `approve_url`). */
  extra?: Record<string, unknown>;
  cause?: unknown;
}

/** The only way code reports a failure to a caller: a catalog code plus optional precision. */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly options: AppErrorOptions = {},
  ) {
    super(options.message ?? CATALOG[code].message, { cause: options.cause });
    this.name = "AppError";
    this.status = CATALOG[code].status;
  }
}
