CREATE TABLE "agent_proposals" (
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"run_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"proposal_type" text NOT NULL,
	"action_type" text NOT NULL,
	"proposal_key" text NOT NULL,
	"status" text NOT NULL,
	"confidence" double precision NOT NULL,
	"evidence_score" double precision NOT NULL,
	"narrative" text NOT NULL,
	"evidence" jsonb NOT NULL,
	"details" jsonb NOT NULL,
	"payment_intent_id" text,
	"policy_decision_id" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_proposals_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "agent_routing_decisions" (
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"input_kind" text NOT NULL,
	"input_text" text NOT NULL,
	"context" jsonb NOT NULL,
	"selected_agent_id" text,
	"fallback_agent_ids" text[] NOT NULL,
	"confidence" double precision NOT NULL,
	"evidence_score" double precision NOT NULL,
	"policy_status" text NOT NULL,
	"execution_mode" text,
	"reason" text NOT NULL,
	"rule" text NOT NULL,
	"candidates" jsonb NOT NULL,
	"run_id" text,
	"requested_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_routing_decisions_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "agent_runs" (
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"routing_decision_id" text NOT NULL,
	"agent_id" text,
	"category" text,
	"agent_version" text,
	"behavior_hash" text,
	"status" text NOT NULL,
	"action" text,
	"shadow_mode" boolean NOT NULL,
	"as_of" date NOT NULL,
	"reason" text NOT NULL,
	"trigger" text NOT NULL,
	"job_id" text,
	"ledger_read" jsonb NOT NULL,
	"gate_dry_run" jsonb NOT NULL,
	"duplicate_keys" text[] NOT NULL,
	"requested_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_runs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE INDEX "agent_proposals_run_idx" ON "agent_proposals" USING btree ("tenant_id","run_id");--> statement-breakpoint
CREATE INDEX "agent_proposals_key_idx" ON "agent_proposals" USING btree ("tenant_id","agent_id","proposal_key","created_at");--> statement-breakpoint
CREATE INDEX "agent_proposals_agent_idx" ON "agent_proposals" USING btree ("tenant_id","agent_id","created_at","id");--> statement-breakpoint
CREATE INDEX "agent_runs_list_idx" ON "agent_runs" USING btree ("tenant_id","created_at","id");