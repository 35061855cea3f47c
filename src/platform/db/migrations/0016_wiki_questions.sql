CREATE TABLE "wiki_questions" (
	"tenant_id" uuid NOT NULL,
	"id" text NOT NULL,
	"question" text NOT NULL,
	"template" text,
	"answered" boolean NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	"answer" jsonb NOT NULL,
	"usage" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "wiki_questions_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "wiki_questions" ADD CONSTRAINT "wiki_questions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wiki_questions_created_idx" ON "wiki_questions" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "wiki_questions_template_idx" ON "wiki_questions" USING btree ("tenant_id","template");--> statement-breakpoint
CREATE INDEX "ledger_transactions_totals_idx" ON "ledger_transactions" USING btree ("tenant_id","transaction_date","direction","currency","amount") WHERE "ledger_transactions"."superseded_at" is null;--> statement-breakpoint
CREATE INDEX "ledger_transactions_category_idx" ON "ledger_transactions" USING btree ("tenant_id","category_id","transaction_date") WHERE "ledger_transactions"."superseded_at" is null and "ledger_transactions"."category_id" is not null;