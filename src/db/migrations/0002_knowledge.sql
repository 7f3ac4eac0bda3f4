CREATE TABLE "audit_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"seq" integer NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"action" text NOT NULL,
	"resource_type" text NOT NULL,
	"resource_id" text,
	"trace_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credentials" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"provider" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "memory_item_versions" (
	"item_id" uuid NOT NULL,
	"workspace_id" text NOT NULL,
	"version" integer NOT NULL,
	"type" text NOT NULL,
	"domain" text NOT NULL,
	"scope" text NOT NULL,
	"authority" integer NOT NULL,
	"tags" text[] NOT NULL,
	"content" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "memory_item_versions_item_id_version_pk" PRIMARY KEY("item_id","version")
);
--> statement-breakpoint
CREATE TABLE "memory_items" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"type" text NOT NULL,
	"domain" text NOT NULL,
	"scope" text NOT NULL,
	"authority" integer NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"content" jsonb NOT NULL,
	"body" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', body)) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_data_keys" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"wrapped_key" text NOT NULL,
	"master_key_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_items" ADD CONSTRAINT "memory_items_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_data_keys" ADD CONSTRAINT "workspace_data_keys_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_entries_workspace_seq_idx" ON "audit_entries" USING btree ("workspace_id","seq");--> statement-breakpoint
CREATE INDEX "credentials_workspace_idx" ON "credentials" USING btree ("workspace_id","provider");--> statement-breakpoint
CREATE INDEX "memory_item_versions_ws_idx" ON "memory_item_versions" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "memory_items_workspace_idx" ON "memory_items" USING btree ("workspace_id","domain","created_at");--> statement-breakpoint
CREATE INDEX "memory_items_search_idx" ON "memory_items" USING gin ("search");--> statement-breakpoint
CREATE INDEX "memory_items_body_trgm_idx" ON "memory_items" USING gin ("body" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "memory_items_tags_idx" ON "memory_items" USING gin ("tags");