CREATE TABLE "conversations" (
	"workspace_id" text NOT NULL,
	"id" text NOT NULL,
	"state" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversations_workspace_id_id_pk" PRIMARY KEY("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "executions" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"intent_id" text,
	"status" text NOT NULL,
	"domain" text,
	"steps" jsonb NOT NULL,
	"result" jsonb,
	"error" text,
	"diagnosis" jsonb,
	"escalation_id" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "intents" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"trace_id" text NOT NULL,
	"conversation_id" text,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"domain" text,
	"decision" text NOT NULL,
	"confidence" real NOT NULL,
	"gaps" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"request" jsonb NOT NULL,
	"response" jsonb NOT NULL,
	"execution_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "executions" ADD CONSTRAINT "executions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intents" ADD CONSTRAINT "intents_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "executions_workspace_idx" ON "executions" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "executions_escalation_idx" ON "executions" USING btree ("workspace_id","escalation_id");--> statement-breakpoint
CREATE INDEX "intents_workspace_idx" ON "intents" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "intents_trace_idx" ON "intents" USING btree ("workspace_id","trace_id");