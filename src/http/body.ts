// Request parsing and validation. Bodies are validated strictly (a wrong type is a 400, never coerced);
// query strings and path parameters are coerced, because they arrive as text. Empty JSON bodies are
// accepted: published clients send `Content-Type: application/json` with no bytes on action POSTs.
import { Ajv, type Options } from "ajv";
import addFormatsModule from "ajv-formats";
import { AppError } from "../errors/app-error.ts";
import { findTextIssue, jsonTextDeeperThan, MAX_JSON_DEPTH } from "../safe-json.ts";
import type { App } from "./types.ts";

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: Options["coerceTypes"]): Ajv {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}

/** Mark a body schema with `[OPTIONAL_BODY]: true` when the route also accepts no body at all. */
export const OPTIONAL_BODY = "x-svc-optional-body";

export function registerBodyHandling(app: App, bodyLimit: number): void {
  const strict = makeAjv(false);
  const lenient = makeAjv("array");
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const validate = (httpPart === "body" ? strict : lenient).compile(schema);
    if (httpPart !== "body" || !(schema as Record<string, unknown>)[OPTIONAL_BODY]) return validate;
    // Action POSTs (confirm, resolve) are sent with no body by some clients: absent is fine, wrong is not.
    const check = (data: unknown) => {
      if (data === undefined || data === null) return true; // Fastify hands an absent body over as null
      const ok = validate(data);
      check.errors = validate.errors;
      return ok;
    };
    check.errors = validate.errors;
    return check;
  });

  const defaultJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string", bodyLimit }, (request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") {
      done(null, undefined);
      return;
    }
    // Refused before parsing: nothing downstream (canonical JSON, secret scans, stores) meets a deep value.
    if (jsonTextDeeperThan(text, MAX_JSON_DEPTH)) {
      const message = `is nested deeper than ${MAX_JSON_DEPTH} levels`;
      done(new AppError("invalid_request", { message: `Invalid request: body ${message}.`, details: [{ field: "body", message }] }), undefined);
      return;
    }
    defaultJson(request, text, done);
  });

  // NUL and lone surrogates are refused in every text a caller sends (path, query, body; headers cannot
  // carry them), never stripped: silently changing what a caller sent would store something they did not
  // say, and PostgreSQL cannot store either one. Before validation, so the field is named the same way.
  app.addHook("preValidation", (request, _reply, done) => {
    const issue =
      findTextIssue(request.params, "") ?? findTextIssue(request.query, "") ?? findTextIssue(request.body, "");
    if (!issue) return done();
    done(new AppError("invalid_request", { message: `Invalid request: ${issue.field} ${issue.message}.`, details: [issue] }));
  });
}
