CREATE TABLE "agent_promotions" (
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"agent_id" text NOT NULL,
	"currency" text NOT NULL,
	"per_payment_cap" numeric NOT NULL,
	"per_day_cap" numeric NOT NULL,
	"allowed_rails" text[] NOT NULL,
	"allowed_counterparty_ids" text[],
	"expires_at" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	"promoted_by" text NOT NULL,
	"thresholds" jsonb NOT NULL,
	"scorecard" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"demoted_at" timestamp with time zone,
	"demoted_by" text,
	"demotion_reason" text,
	CONSTRAINT "agent_promotions_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "agent_promotions_caps_check" CHECK ("agent_promotions"."per_payment_cap" > 0 and "agent_promotions"."per_day_cap" >= "agent_promotions"."per_payment_cap")
);
--> statement-breakpoint
CREATE TABLE "execution_receipts" (
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"execution_id" text NOT NULL,
	"payment_intent_id" text NOT NULL,
	"kind" text NOT NULL,
	"receipt" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "execution_receipts_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "execution_receipts_kind_check" CHECK ("execution_receipts"."kind" in ('settlement', 'return'))
);
--> statement-breakpoint
CREATE TABLE "executions" (
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"outbox_id" text NOT NULL,
	"payment_intent_id" text NOT NULL,
	"rail" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer NOT NULL,
	"claimed_by" text,
	"lease_until" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"rail_reference" text,
	"parked_reason" text,
	"failure_code" text,
	"failure_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "executions_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "executions_status_check" CHECK ("executions"."status" in ('dispatched', 'in_flight', 'completed', 'failed')),
	CONSTRAINT "executions_attempts_check" CHECK ("executions"."attempts" >= 0)
);
--> statement-breakpoint
CREATE TABLE "sandbox_ach_transfers" (
	"id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"payment_intent_id" text NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"return_code" text,
	"duplicate_submits" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone,
	"returned_at" timestamp with time zone,
	CONSTRAINT "sandbox_ach_transfers_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "sandbox_ach_transfers_status_check" CHECK ("sandbox_ach_transfers"."status" in ('declined', 'pending', 'settled', 'returned'))
);
--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "execution_receipt_ids" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "agent_promotions_open_unique" ON "agent_promotions" USING btree ("tenant_id","agent_id") WHERE "agent_promotions"."demoted_at" is null;--> statement-breakpoint
CREATE INDEX "agent_promotions_agent_idx" ON "agent_promotions" USING btree ("tenant_id","agent_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "execution_receipts_kind_unique" ON "execution_receipts" USING btree ("tenant_id","execution_id","kind");--> statement-breakpoint
CREATE INDEX "execution_receipts_intent_idx" ON "execution_receipts" USING btree ("tenant_id","payment_intent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "executions_outbox_unique" ON "executions" USING btree ("tenant_id","outbox_id");--> statement-breakpoint
CREATE INDEX "executions_intent_idx" ON "executions" USING btree ("tenant_id","payment_intent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "executions_idempotency_key_unique" ON "executions" USING btree ("tenant_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "executions_open_idx" ON "executions" USING btree ("status","lease_until") WHERE "executions"."status" in ('dispatched', 'in_flight');--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_ach_transfers_key_unique" ON "sandbox_ach_transfers" USING btree ("tenant_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "payment_outbox_pending_idx" ON "payment_outbox" USING btree ("created_at") WHERE "payment_outbox"."status" = 'pending';