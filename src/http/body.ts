// Request parsing and validation. Bodies are validated strictly (a wrong type is a 400, never coerced);
// query strings and path parameters are coerced, because they arrive as text. Empty JSON bodies are
// accepted: published clients send `Content-Type: application/json` with no bytes on action POSTs.
import { Ajv, type Options } from "ajv";
import addFormatsModule from "ajv-formats";
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
    defaultJson(request, text, done);
  });
}
