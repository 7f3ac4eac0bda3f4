CREATE TABLE "healing_precedents" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"source_key" text NOT NULL,
	"source" text NOT NULL,
	"execution_id" text,
	"trace_id" text,
	"tool_name" text,
	"error_category" text NOT NULL,
	"error_type" text NOT NULL,
	"root_cause" text NOT NULL,
	"recovery_strategy" text NOT NULL,
	"what_failed" text NOT NULL,
	"what_worked" text,
	"success" boolean NOT NULL,
	"attempts" integer NOT NULL,
	"duration_ms" integer,
	"confidence" real NOT NULL,
	"domain" text,
	"recovered_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"recovered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "promotions" (
	"workspace_id" text NOT NULL,
	"intent_id" text NOT NULL,
	"kind" text NOT NULL,
	"target_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotions_workspace_id_intent_id_kind_pk" PRIMARY KEY("workspace_id","intent_id","kind")
);
--> statement-breakpoint
ALTER TABLE "healing_precedents" ADD CONSTRAINT "healing_precedents_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "healing_precedents_source_idx" ON "healing_precedents" USING btree ("workspace_id","source_key");--> statement-breakpoint
CREATE INDEX "healing_precedents_match_idx" ON "healing_precedents" USING btree ("workspace_id","tool_name","error_category");--> statement-breakpoint
CREATE INDEX "healing_precedents_workspace_idx" ON "healing_precedents" USING btree ("workspace_id","created_at");