// Wire shapes shared by several modules' routes.
import { Type } from "typebox";

/** What a DELETE answers (published clients expect a JSON body, not 204, except for API keys). */
export const Deleted = Type.Object({ id: Type.String(), status: Type.Literal("deleted") });

/**
 * The largest `offset` a list accepts (each list also caps its `limit`); beyond it a 400 invalid_request.
 * Unbounded, `?offset=9223372036854775807` overflowed PostgreSQL's bigint into a 500.
 */
export const MAX_OFFSET = 1_000_000;
export const Offset = Type.Integer({ minimum: 0, maximum: MAX_OFFSET, description: `Items to skip (at most ${MAX_OFFSET})` });
