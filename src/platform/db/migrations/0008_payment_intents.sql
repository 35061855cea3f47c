CREATE TABLE "payment_approvals" (
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"payment_intent_id" text NOT NULL,
	"decision" text NOT NULL,
	"member_id" text NOT NULL,
	"user_id" text NOT NULL,
	"reason" text,
	"audit_event_id" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_approvals_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "payment_approvals_decision_check" CHECK ("payment_approvals"."decision" in ('approve', 'reject'))
);
--> statement-breakpoint
CREATE TABLE "payment_intents" (
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"created_by_agent_id" text,
	"created_by" text NOT NULL,
	"action_type" text NOT NULL,
	"source_account_id" text NOT NULL,
	"destination_counterparty_id" text NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"invoice_id" text,
	"obligation_id" text,
	"evidence_ids" text[] NOT NULL,
	"status" text NOT NULL,
	"policy_decision_id" text NOT NULL,
	"approvals_required" integer NOT NULL,
	"held_by" text,
	"proposal_key" text NOT NULL,
	"rejection_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_intents_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "payment_intents_status_check" CHECK ("payment_intents"."status" in ('proposed', 'pending_approval', 'awaiting_second_approval', 'approved', 'rejected', 'paused', 'cancelled', 'dispatching', 'executed', 'failed', 'reconciling', 'shadow_completed')),
	CONSTRAINT "payment_intents_action_type_check" CHECK ("payment_intents"."action_type" in ('ach_outbound', 'ach_inbound', 'wire', 'onchain_transfer', 'erp_writeback', 'card_payment', 'x402_settle', 'escrow_release')),
	CONSTRAINT "payment_intents_amount_check" CHECK ("payment_intents"."amount" > 0),
	CONSTRAINT "payment_intents_approvals_check" CHECK ("payment_intents"."approvals_required" between 0 and 5)
);
--> statement-breakpoint
CREATE TABLE "payment_policy_decisions" (
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"payment_intent_id" text NOT NULL,
	"policy_id" text NOT NULL,
	"policy_version" integer NOT NULL,
	"outcome" text NOT NULL,
	"matched_rule_id" text,
	"required_approvers" text[] NOT NULL,
	"covered_by_autonomous_cap" boolean NOT NULL,
	"trace" jsonb NOT NULL,
	"action" jsonb NOT NULL,
	"action_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_policy_decisions_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "payment_policy_decisions_outcome_check" CHECK ("payment_policy_decisions"."outcome" in ('allow', 'confirm', 'reject'))
);
--> statement-breakpoint
ALTER TABLE "payment_approvals" ADD CONSTRAINT "payment_approvals_intent_fk" FOREIGN KEY ("tenant_id","payment_intent_id") REFERENCES "public"."payment_intents"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_approvals_member_unique" ON "payment_approvals" USING btree ("tenant_id","payment_intent_id","member_id") WHERE "payment_approvals"."decision" = 'approve';--> statement-breakpoint
CREATE INDEX "payment_intents_tenant_created_idx" ON "payment_intents" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payment_intents_tenant_status_idx" ON "payment_intents" USING btree ("tenant_id","status","created_at");--> statement-breakpoint
CREATE INDEX "payment_intents_tenant_agent_idx" ON "payment_intents" USING btree ("tenant_id","created_by_agent_id","created_at");--> statement-breakpoint
CREATE INDEX "payment_intents_tenant_proposal_key_idx" ON "payment_intents" USING btree ("tenant_id","proposal_key","created_at");--> statement-breakpoint
CREATE INDEX "payment_policy_decisions_intent_idx" ON "payment_policy_decisions" USING btree ("tenant_id","payment_intent_id");