CREATE INDEX "audit_entries_trace_idx" ON "audit_entries" USING btree ("workspace_id","trace_id");--> statement-breakpoint
CREATE INDEX "audit_entries_resource_idx" ON "audit_entries" USING btree ("workspace_id","resource_type","resource_id","seq");--> statement-breakpoint
CREATE INDEX "audit_entries_action_idx" ON "audit_entries" USING btree ("workspace_id","action","seq");--> statement-breakpoint
CREATE INDEX "audit_entries_actor_idx" ON "audit_entries" USING btree ("workspace_id","actor_id","seq");--> statement-breakpoint
CREATE INDEX "audit_entries_created_idx" ON "audit_entries" USING btree ("workspace_id","created_at");