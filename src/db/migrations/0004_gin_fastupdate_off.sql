DROP INDEX "memory_items_body_trgm_idx";--> statement-breakpoint
DROP INDEX "memory_items_search_idx";--> statement-breakpoint
DROP INDEX "memory_items_tags_idx";--> statement-breakpoint
DROP INDEX "memory_terms_trgm_idx";--> statement-breakpoint
CREATE INDEX "memory_items_search_idx" ON "memory_items" USING gin ("search") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "memory_items_tags_idx" ON "memory_items" USING gin ("tags") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "memory_terms_trgm_idx" ON "memory_terms" USING gin ("term" gin_trgm_ops) WITH (fastupdate=false);