CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"environment" text NOT NULL,
	"scopes" text[] NOT NULL,
	"secret_digest" text NOT NULL,
	"secret_last_four" text NOT NULL,
	"previous_secret_digest" text,
	"previous_secret_expires_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"rotated_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "api_keys_environment_check" CHECK ("api_keys"."environment" in ('test', 'live'))
);
--> statement-breakpoint
CREATE TABLE "audit_chain_heads" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"seq" bigint NOT NULL,
	"layer" text NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text NOT NULL,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"inputs" jsonb NOT NULL,
	"outputs" jsonb NOT NULL,
	"evidence_ids" text[] NOT NULL,
	"request_id" text,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "audit_events_layer_check" CHECK ("audit_events"."layer" in ('raw', 'ledger', 'wiki', 'policy', 'agent', 'execution', 'audit'))
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"audit_event_id" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "members" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"status" text NOT NULL,
	"approval_domains" text[] NOT NULL,
	"approval_limit_value" numeric,
	"approval_limit_currency" text,
	"invited_by" text,
	"deactivated_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "members_role_check" CHECK ("members"."role" in ('owner', 'admin', 'approver', 'viewer')),
	CONSTRAINT "members_status_check" CHECK ("members"."status" in ('invited', 'active', 'deactivated')),
	CONSTRAINT "members_approval_limit_pair_check" CHECK (("members"."approval_limit_value" is null) = ("members"."approval_limit_currency" is null))
);
--> statement-breakpoint
CREATE TABLE "service_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"scopes" text[] NOT NULL,
	"reason" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"environment" text NOT NULL,
	"org_id" text,
	"identity_issuer" text,
	"identity_subject" text,
	"rate_limit_tier" text NOT NULL,
	"rate_limit_per_minute" integer,
	"rate_limit_burst" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tenants_status_check" CHECK ("tenants"."status" in ('active', 'suspended')),
	CONSTRAINT "tenants_environment_check" CHECK ("tenants"."environment" in ('sandbox', 'production')),
	CONSTRAINT "tenants_rate_limit_tier_check" CHECK ("tenants"."rate_limit_tier" in ('free', 'developer', 'production', 'enterprise')),
	CONSTRAINT "tenants_rate_limit_custom_check" CHECK (("tenants"."rate_limit_per_minute" is null or "tenants"."rate_limit_per_minute" > 0) and ("tenants"."rate_limit_burst" is null or "tenants"."rate_limit_burst" > 0)),
	CONSTRAINT "tenants_identity_pair_check" CHECK (("tenants"."identity_issuer" is null) = ("tenants"."identity_subject" is null))
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"email" text NOT NULL,
	"password_hash" text,
	"status" text NOT NULL,
	"email_verified_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "users_status_check" CHECK ("users"."status" in ('pending', 'active'))
);
--> statement-breakpoint
CREATE TABLE "verification_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"purpose" text NOT NULL,
	"token_digest" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "verification_tokens_purpose_check" CHECK ("verification_tokens"."purpose" in ('email_verification', 'invitation'))
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_tokens" ADD CONSTRAINT "service_tokens_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_tokens" ADD CONSTRAINT "verification_tokens_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_tokens" ADD CONSTRAINT "verification_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_secret_digest_unique" ON "api_keys" USING btree ("secret_digest");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_previous_secret_digest_unique" ON "api_keys" USING btree ("previous_secret_digest");--> statement-breakpoint
CREATE INDEX "api_keys_tenant_idx" ON "api_keys" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "audit_events_tenant_seq_unique" ON "audit_events" USING btree ("tenant_id","seq");--> statement-breakpoint
CREATE INDEX "audit_events_entity_idx" ON "audit_events" USING btree ("tenant_id","entity_type","entity_id","seq");--> statement-breakpoint
CREATE INDEX "events_tenant_idx" ON "events" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "members_user_unique" ON "members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "members_tenant_idx" ON "members" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "service_tokens_tenant_idx" ON "service_tokens" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tenants_identity_unique" ON "tenants" USING btree ("identity_issuer","identity_subject");--> statement-breakpoint
CREATE INDEX "tenants_org_idx" ON "tenants" USING btree ("org_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "users_tenant_idx" ON "users" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "verification_tokens_digest_unique" ON "verification_tokens" USING btree ("token_digest");--> statement-breakpoint
CREATE INDEX "verification_tokens_tenant_idx" ON "verification_tokens" USING btree ("tenant_id");