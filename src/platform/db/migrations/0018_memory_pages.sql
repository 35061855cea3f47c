CREATE TABLE "memory_pages" (
	"tenant_id" uuid NOT NULL,
	"id" text NOT NULL,
	"slug" text NOT NULL,
	"page_type" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"content_sha256" text NOT NULL,
	"subject_ids" text[] NOT NULL,
	"source_version" timestamp with time zone,
	"version" integer NOT NULL,
	"generated_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "memory_pages_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "memory_pages_version_check" CHECK ("memory_pages"."version" >= 1)
);
--> statement-breakpoint
ALTER TABLE "memory_pages" ADD CONSTRAINT "memory_pages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "memory_pages_slug_idx" ON "memory_pages" USING btree ("tenant_id","slug");--> statement-breakpoint
CREATE INDEX "memory_pages_type_idx" ON "memory_pages" USING btree ("tenant_id","page_type","slug");--> statement-breakpoint
CREATE INDEX "memory_pages_search_idx" ON "memory_pages" USING gin (to_tsvector('simple', "title" || ' ' || "content"));