CREATE TABLE "agent_registrations" (
	"tenant_id" uuid NOT NULL,
	"agent_id" text NOT NULL,
	"role" text NOT NULL,
	"display_name" text NOT NULL,
	"scope_hash" text NOT NULL,
	"onchain_address" text,
	"registered_tx" text,
	"registered_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_registrations_tenant_id_agent_id_pk" PRIMARY KEY("tenant_id","agent_id"),
	CONSTRAINT "agent_registrations_scope_hash_check" CHECK ("agent_registrations"."scope_hash" ~ '^0x[0-9a-f]{64}$'),
	CONSTRAINT "agent_registrations_onchain_address_check" CHECK ("agent_registrations"."onchain_address" is null or "agent_registrations"."onchain_address" ~ '^0x[0-9a-f]{40}$')
);
--> statement-breakpoint
CREATE TABLE "agent_states" (
	"tenant_id" uuid NOT NULL,
	"agent_id" text NOT NULL,
	"state" text NOT NULL,
	"contribution_held" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_states_tenant_id_agent_id_pk" PRIMARY KEY("tenant_id","agent_id"),
	CONSTRAINT "agent_states_state_check" CHECK ("agent_states"."state" in ('pending_onchain', 'active', 'quarantined', 'revoked'))
);
--> statement-breakpoint
CREATE TABLE "siwx_challenges" (
	"nonce" text PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "siwx_challenges_address_check" CHECK ("siwx_challenges"."address" ~ '^0x[0-9a-f]{40}$')
);
--> statement-breakpoint
ALTER TABLE "raw_artifacts" ADD COLUMN "held_for_agent_id" text;--> statement-breakpoint
ALTER TABLE "agent_registrations" ADD CONSTRAINT "agent_registrations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_states" ADD CONSTRAINT "agent_states_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "siwx_challenges_expires_idx" ON "siwx_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "raw_artifacts_held_idx" ON "raw_artifacts" USING btree ("tenant_id","held_for_agent_id") WHERE "raw_artifacts"."held_for_agent_id" is not null;