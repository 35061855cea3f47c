CREATE TABLE "policies" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"state" text NOT NULL,
	"content" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"quorum_required" integer NOT NULL,
	"signers" text[] NOT NULL,
	"activated_at" timestamp with time zone,
	"deactivated_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "policies_state_check" CHECK ("policies"."state" in ('pending_signatures', 'active', 'superseded')),
	CONSTRAINT "policies_version_check" CHECK ("policies"."version" >= 1),
	CONSTRAINT "policies_quorum_check" CHECK ("policies"."quorum_required" >= 1),
	CONSTRAINT "policies_activation_check" CHECK (("policies"."state" = 'pending_signatures' and "policies"."activated_at" is null and "policies"."deactivated_at" is null)
        or ("policies"."state" = 'active' and "policies"."activated_at" is not null and "policies"."deactivated_at" is null)
        or ("policies"."state" = 'superseded' and ("policies"."activated_at" is null) = ("policies"."deactivated_at" is null)))
);
--> statement-breakpoint
CREATE TABLE "policy_signatures" (
	"policy_id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"address" text NOT NULL,
	"signature" text NOT NULL,
	"submitted_by" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "policy_signatures_policy_id_address_pk" PRIMARY KEY("policy_id","address")
);
--> statement-breakpoint
CREATE TABLE "policy_verdicts" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"token_digest" text NOT NULL,
	"decision" jsonb NOT NULL,
	"action_hash" text NOT NULL,
	"policy_id" text NOT NULL,
	"policy_version" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tenant_wallets" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"address" text NOT NULL,
	"principal_type" text NOT NULL,
	"principal_id" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tenant_wallets_principal_type_check" CHECK ("tenant_wallets"."principal_type" in ('human', 'agent')),
	CONSTRAINT "tenant_wallets_address_check" CHECK ("tenant_wallets"."address" ~ '^0x[0-9a-f]{40}$')
);
--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_signatures" ADD CONSTRAINT "policy_signatures_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_verdicts" ADD CONSTRAINT "policy_verdicts_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_wallets" ADD CONSTRAINT "tenant_wallets_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "policies_tenant_version_unique" ON "policies" USING btree ("tenant_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "policies_tenant_active_unique" ON "policies" USING btree ("tenant_id") WHERE "policies"."state" = 'active';--> statement-breakpoint
CREATE INDEX "policy_signatures_tenant_idx" ON "policy_signatures" USING btree ("tenant_id","policy_id");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_verdicts_token_digest_unique" ON "policy_verdicts" USING btree ("token_digest");--> statement-breakpoint
CREATE INDEX "policy_verdicts_tenant_idx" ON "policy_verdicts" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "tenant_wallets_address_unique" ON "tenant_wallets" USING btree ("address");--> statement-breakpoint
CREATE INDEX "tenant_wallets_tenant_idx" ON "tenant_wallets" USING btree ("tenant_id","id");