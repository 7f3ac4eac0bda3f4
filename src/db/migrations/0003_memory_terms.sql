CREATE TABLE "memory_terms" (
	"workspace_id" text NOT NULL,
	"term" text NOT NULL,
	CONSTRAINT "memory_terms_workspace_id_term_pk" PRIMARY KEY("workspace_id","term")
);
--> statement-breakpoint
ALTER TABLE "memory_terms" ADD CONSTRAINT "memory_terms_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memory_terms_trgm_idx" ON "memory_terms" USING gin ("term" gin_trgm_ops);