-- pg_trgm: the Wiki search's trigram similarity (PGlite loads the extension in its constructor).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "wiki_annotations" (
	"tenant_id" uuid NOT NULL,
	"id" text NOT NULL,
	"subject_id" text NOT NULL,
	"subject_kind" text NOT NULL,
	"target" text NOT NULL,
	"version" integer NOT NULL,
	"basis_version_id" text NOT NULL,
	"note" text,
	"labels" text[],
	"corrections" jsonb,
	"relation_status" text,
	"provenance" text NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "wiki_annotations_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "wiki_annotations_target_check" CHECK ("wiki_annotations"."target" in ('entity', 'relation')),
	CONSTRAINT "wiki_annotations_version_check" CHECK ("wiki_annotations"."version" >= 1)
);
--> statement-breakpoint
CREATE TABLE "wiki_search_embeddings" (
	"tenant_id" uuid NOT NULL,
	"document_kind" text NOT NULL,
	"document_id" text NOT NULL,
	"model" text NOT NULL,
	"content_sha256" text NOT NULL,
	"vector" real[] NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "wiki_search_embeddings_tenant_id_document_kind_document_id_model_pk" PRIMARY KEY("tenant_id","document_kind","document_id","model")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "wiki_annotations_subject_version_unique" ON "wiki_annotations" USING btree ("tenant_id","subject_id","version");--> statement-breakpoint
CREATE INDEX "wiki_annotations_subject_time_idx" ON "wiki_annotations" USING btree ("tenant_id","subject_id","created_at");