CREATE TABLE "proposal_decisions" (
	"tenant_id" uuid NOT NULL,
	"id" text NOT NULL,
	"proposal_id" text NOT NULL,
	"sequence" integer NOT NULL,
	"decision" text NOT NULL,
	"member_id" text NOT NULL,
	"user_id" text NOT NULL,
	"reason" text,
	"payment_intent_id" text,
	"status_before" text NOT NULL,
	"status_after" text NOT NULL,
	"undoes_decision_id" text,
	"audit_event_id" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "proposal_decisions_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "agent_proposals" ALTER COLUMN "run_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "proposal_decisions" ADD CONSTRAINT "proposal_decisions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "proposal_decisions_sequence_idx" ON "proposal_decisions" USING btree ("tenant_id","proposal_id","sequence");