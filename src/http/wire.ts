// Wire shapes shared by several modules' routes.
import { Type } from "typebox";

/** What a DELETE answers (published clients expect a JSON body, not 204, except for API keys). */
export const Deleted = Type.Object({ id: Type.String(), status: Type.Literal("deleted") });
