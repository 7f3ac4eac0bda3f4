CREATE TABLE "audit_heads" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"seq" integer NOT NULL,
	"hash" text NOT NULL,
	"prev_hash" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_heads" ADD CONSTRAINT "audit_heads_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Chains written before this table existed: their head is their last entry.
INSERT INTO "audit_heads" ("workspace_id", "seq", "hash", "prev_hash")
SELECT DISTINCT ON ("workspace_id") "workspace_id", "seq", "hash", "prev_hash"
FROM "audit_entries"
ORDER BY "workspace_id", "seq" DESC;
