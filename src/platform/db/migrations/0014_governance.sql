CREATE TABLE "governance_report_snapshots" (
	"tenant_id" uuid NOT NULL,
	"id" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"agent_id" text,
	"created_by" text NOT NULL,
	"report" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "governance_report_snapshots_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "governance_report_snapshots_period_check" CHECK ("governance_report_snapshots"."period_start" < "governance_report_snapshots"."period_end")
);
--> statement-breakpoint
ALTER TABLE "governance_report_snapshots" ADD CONSTRAINT "governance_report_snapshots_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "governance_report_snapshots_created_idx" ON "governance_report_snapshots" USING btree ("tenant_id","created_at");