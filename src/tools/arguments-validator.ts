// The one way tool arguments are checked against a tool's JSON Schema: the workspace's tools (OpenAPI and MCP)
// and the tools a chat client defines compile their schemas here, so a value is valid or not alike for both.
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

// OpenAPI documents write `format: time` for a time of day as people book it ("09:30", often beside a pattern
// saying so); JSON Schema's RFC 3339 full-time would refuse it for want of seconds and an offset, and the
// value would be asked for again. Seconds, fractions and an offset are taken when given.
const TIME_OF_DAY = /^(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:[zZ]|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?$/;

/**
 * An Ajv instance lenient about what documents contain (unknown keywords and formats, non-unicode
 * patterns) and strict about values: no coercion, no defaults written into the caller's arguments.
 */
export function argumentsValidator(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, coerceTypes: false, useDefaults: false, unicodeRegExp: false, logger: false });
  addFormats(ajv);
  ajv.addFormat("time", TIME_OF_DAY);
  return ajv;
}
