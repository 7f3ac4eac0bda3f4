ALTER TABLE "credentials" ADD COLUMN "allowed_hosts" jsonb;--> statement-breakpoint
ALTER TABLE "credentials" ADD COLUMN "bound_host" text;