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
CREATE TABLE "audit_anchor_publications" (
	"anchor_id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"chain_id" integer NOT NULL,
	"contract_address" text NOT NULL,
	"tx_hash" text NOT NULL,
	"block_number" bigint NOT NULL,
	"published_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_anchors" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"seq_from" bigint NOT NULL,
	"seq_to" bigint NOT NULL,
	"event_count" integer NOT NULL,
	"merkle_root" text NOT NULL,
	"tree" "bytea" NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"anchoring_mode" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "audit_anchors_range_check" CHECK ("audit_anchors"."seq_from" >= 1 and "audit_anchors"."seq_to" >= "audit_anchors"."seq_from" and "audit_anchors"."event_count" = "audit_anchors"."seq_to" - "audit_anchors"."seq_from" + 1)
);
--> statement-breakpoint
CREATE TABLE "audit_chain_heads" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	"batched_seq" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
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
	"created_at" timestamp with time zone NOT NULL,
	"recorded_order" bigint NOT NULL,
	"seq" bigint NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	"sequenced_at" timestamp with time zone NOT NULL,
	CONSTRAINT "audit_events_layer_check" CHECK ("audit_events"."layer" in ('raw', 'ledger', 'wiki', 'policy', 'agent', 'execution', 'audit'))
);
--> statement-breakpoint
CREATE TABLE "audit_exports" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"format" text NOT NULL,
	"filters" jsonb NOT NULL,
	"status" text NOT NULL,
	"events_total" integer,
	"events_written" integer DEFAULT 0 NOT NULL,
	"blob_sha256" text,
	"bytes" bigint,
	"error" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_inbox" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
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
	"created_at" timestamp with time zone NOT NULL,
	"recorded_order" bigint GENERATED ALWAYS AS IDENTITY (sequence name "audit_inbox_recorded_order_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	CONSTRAINT "audit_inbox_layer_check" CHECK ("audit_inbox"."layer" in ('raw', 'ledger', 'wiki', 'policy', 'agent', 'execution', 'audit'))
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
CREATE TABLE "idempotency_keys" (
	"tenant_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response_status" integer NOT NULL,
	"response_body" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_tenant_id_scope_key_pk" PRIMARY KEY("tenant_id","scope","key")
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"version_id" text PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"supersedes" text,
	"source_ids" text[] NOT NULL,
	"evidence_ids" text[] NOT NULL,
	"provenance" text NOT NULL,
	"confidence" double precision NOT NULL,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"superseded_at" timestamp with time zone,
	"account_type" text NOT NULL,
	"status" text NOT NULL,
	"name" text NOT NULL,
	"institution" text,
	"currency" text NOT NULL,
	"external_account_id" text,
	"iban" text,
	"account_number_masked" text,
	"wallet_address" text,
	"chain_id" integer
);
--> statement-breakpoint
CREATE TABLE "ledger_balances" (
	"version_id" text PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"supersedes" text,
	"source_ids" text[] NOT NULL,
	"evidence_ids" text[] NOT NULL,
	"provenance" text NOT NULL,
	"confidence" double precision NOT NULL,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"superseded_at" timestamp with time zone,
	"account_id" text NOT NULL,
	"balance_type" text NOT NULL,
	"as_of" date NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_counterparties" (
	"version_id" text PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"supersedes" text,
	"source_ids" text[] NOT NULL,
	"evidence_ids" text[] NOT NULL,
	"provenance" text NOT NULL,
	"confidence" double precision NOT NULL,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"superseded_at" timestamp with time zone,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"verified_status" text NOT NULL,
	"risk_level" text NOT NULL,
	"trust_state" text NOT NULL,
	"aliases" text[] NOT NULL,
	"linked_accounts" text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entity_keys" (
	"tenant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"entity_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ledger_entity_keys_tenant_id_kind_key_pk" PRIMARY KEY("tenant_id","kind","key")
);
--> statement-breakpoint
CREATE TABLE "ledger_invoices" (
	"version_id" text PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"supersedes" text,
	"source_ids" text[] NOT NULL,
	"evidence_ids" text[] NOT NULL,
	"provenance" text NOT NULL,
	"confidence" double precision NOT NULL,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"superseded_at" timestamp with time zone,
	"direction" text NOT NULL,
	"invoice_number" text NOT NULL,
	"issue_date" date,
	"due_date" date,
	"currency" text NOT NULL,
	"total" numeric NOT NULL,
	"subtotal" numeric,
	"tax" numeric,
	"amount_paid" numeric NOT NULL,
	"status" text NOT NULL,
	"counterparty_id" text
);
--> statement-breakpoint
CREATE TABLE "ledger_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"input" jsonb NOT NULL,
	"result" jsonb,
	"error" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ledger_obligations" (
	"version_id" text PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"supersedes" text,
	"source_ids" text[] NOT NULL,
	"evidence_ids" text[] NOT NULL,
	"provenance" text NOT NULL,
	"confidence" double precision NOT NULL,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"superseded_at" timestamp with time zone,
	"obligation_type" text NOT NULL,
	"direction" text,
	"reference" text NOT NULL,
	"description" text,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"due_date" date,
	"recurrence" text,
	"status" text NOT NULL,
	"counterparty_id" text,
	"invoice_id" text
);
--> statement-breakpoint
CREATE TABLE "ledger_reconciliation_matches" (
	"version_id" text PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"supersedes" text,
	"source_ids" text[] NOT NULL,
	"evidence_ids" text[] NOT NULL,
	"provenance" text NOT NULL,
	"confidence" double precision NOT NULL,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"superseded_at" timestamp with time zone,
	"match_type" text NOT NULL,
	"status" text NOT NULL,
	"subject_refs" text[] NOT NULL,
	"amount" numeric,
	"currency" text,
	"difference" numeric,
	"explanation" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"version_id" text PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"supersedes" text,
	"source_ids" text[] NOT NULL,
	"evidence_ids" text[] NOT NULL,
	"provenance" text NOT NULL,
	"confidence" double precision NOT NULL,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"superseded_at" timestamp with time zone,
	"account_id" text NOT NULL,
	"external_transaction_id" text,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"direction" text NOT NULL,
	"transaction_date" date NOT NULL,
	"posted_date" date,
	"counterparty_id" text,
	"category_id" text,
	"status" text NOT NULL,
	"description" text NOT NULL,
	"description_normalized" text NOT NULL,
	"reconciliation_status" text NOT NULL
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
CREATE TABLE "provider_connections" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"account_ref" text NOT NULL,
	"secret" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "raw_artifacts" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"sha256" text NOT NULL,
	"bytes" bigint NOT NULL,
	"mime_type" text NOT NULL,
	"source_type" text NOT NULL,
	"source_ref" jsonb NOT NULL,
	"filename" text,
	"parent_artifact_id" text,
	"status" text NOT NULL,
	"extraction_status" text NOT NULL,
	"extraction_error" text,
	"parser" text,
	"parser_version" text,
	"extracted_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"ingested_at" timestamp with time zone NOT NULL,
	"tombstoned_at" timestamp with time zone,
	"bytes_purged_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "raw_parsed_rows" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"raw_artifact_id" text NOT NULL,
	"parser" text NOT NULL,
	"parser_version" text NOT NULL,
	"row_index" integer NOT NULL,
	"extracted" jsonb NOT NULL,
	"confidence" double precision NOT NULL,
	"extracted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "raw_parsed_rows_confidence_check" CHECK ("raw_parsed_rows"."confidence" >= 0 and "raw_parsed_rows"."confidence" <= 1)
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
CREATE TABLE "webhook_dead_letters" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"endpoint_id" text NOT NULL,
	"delivery_id" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"last_error" text NOT NULL,
	"attempt_count" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_attempt_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"endpoint_id" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"status" text NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"last_status_code" integer,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"url" text NOT NULL,
	"description" text,
	"event_types" text[] NOT NULL,
	"status" text NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_expires_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
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
CREATE INDEX "audit_anchor_publications_tenant_idx" ON "audit_anchor_publications" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "audit_anchors_tenant_from_unique" ON "audit_anchors" USING btree ("tenant_id","seq_from");--> statement-breakpoint
CREATE INDEX "audit_anchors_tenant_to_idx" ON "audit_anchors" USING btree ("tenant_id","seq_to");--> statement-breakpoint
CREATE INDEX "audit_anchors_root_idx" ON "audit_anchors" USING btree ("merkle_root");--> statement-breakpoint
CREATE UNIQUE INDEX "audit_events_tenant_seq_unique" ON "audit_events" USING btree ("tenant_id","seq");--> statement-breakpoint
CREATE INDEX "audit_events_tenant_order_idx" ON "audit_events" USING btree ("tenant_id","recorded_order");--> statement-breakpoint
CREATE INDEX "audit_events_entity_idx" ON "audit_events" USING btree ("tenant_id","entity_type","entity_id","recorded_order");--> statement-breakpoint
CREATE INDEX "audit_exports_tenant_idx" ON "audit_exports" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "audit_inbox_order_idx" ON "audit_inbox" USING btree ("recorded_order");--> statement-breakpoint
CREATE INDEX "events_tenant_idx" ON "events" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_version_unique" ON "ledger_accounts" USING btree ("tenant_id","id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_current_unique" ON "ledger_accounts" USING btree ("tenant_id","id") WHERE "ledger_accounts"."superseded_at" is null;--> statement-breakpoint
CREATE INDEX "ledger_accounts_list_idx" ON "ledger_accounts" USING btree ("tenant_id","id") WHERE "ledger_accounts"."superseded_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_balances_version_unique" ON "ledger_balances" USING btree ("tenant_id","id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_balances_current_unique" ON "ledger_balances" USING btree ("tenant_id","id") WHERE "ledger_balances"."superseded_at" is null;--> statement-breakpoint
CREATE INDEX "ledger_balances_account_idx" ON "ledger_balances" USING btree ("tenant_id","account_id","as_of") WHERE "ledger_balances"."superseded_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_counterparties_version_unique" ON "ledger_counterparties" USING btree ("tenant_id","id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_counterparties_current_unique" ON "ledger_counterparties" USING btree ("tenant_id","id") WHERE "ledger_counterparties"."superseded_at" is null;--> statement-breakpoint
CREATE INDEX "ledger_entity_keys_entity_idx" ON "ledger_entity_keys" USING btree ("tenant_id","entity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_invoices_version_unique" ON "ledger_invoices" USING btree ("tenant_id","id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_invoices_current_unique" ON "ledger_invoices" USING btree ("tenant_id","id") WHERE "ledger_invoices"."superseded_at" is null;--> statement-breakpoint
CREATE INDEX "ledger_jobs_tenant_idx" ON "ledger_jobs" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_obligations_version_unique" ON "ledger_obligations" USING btree ("tenant_id","id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_obligations_current_unique" ON "ledger_obligations" USING btree ("tenant_id","id") WHERE "ledger_obligations"."superseded_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_reconciliation_matches_version_unique" ON "ledger_reconciliation_matches" USING btree ("tenant_id","id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_reconciliation_matches_current_unique" ON "ledger_reconciliation_matches" USING btree ("tenant_id","id") WHERE "ledger_reconciliation_matches"."superseded_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_version_unique" ON "ledger_transactions" USING btree ("tenant_id","id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_current_unique" ON "ledger_transactions" USING btree ("tenant_id","id") WHERE "ledger_transactions"."superseded_at" is null;--> statement-breakpoint
CREATE INDEX "ledger_transactions_date_idx" ON "ledger_transactions" USING btree ("tenant_id","transaction_date","id") WHERE "ledger_transactions"."superseded_at" is null;--> statement-breakpoint
CREATE INDEX "ledger_transactions_account_idx" ON "ledger_transactions" USING btree ("tenant_id","account_id","transaction_date","id") WHERE "ledger_transactions"."superseded_at" is null;--> statement-breakpoint
CREATE INDEX "ledger_transactions_counterparty_idx" ON "ledger_transactions" USING btree ("tenant_id","counterparty_id","transaction_date","id") WHERE "ledger_transactions"."superseded_at" is null;--> statement-breakpoint
CREATE INDEX "ledger_transactions_history_idx" ON "ledger_transactions" USING btree ("tenant_id","id","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "members_user_unique" ON "members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "members_tenant_idx" ON "members" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "provider_connections_account_unique" ON "provider_connections" USING btree ("provider","account_ref");--> statement-breakpoint
CREATE INDEX "provider_connections_tenant_idx" ON "provider_connections" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "raw_artifacts_tenant_sha256_unique" ON "raw_artifacts" USING btree ("tenant_id","sha256");--> statement-breakpoint
CREATE INDEX "raw_artifacts_tenant_idx" ON "raw_artifacts" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "raw_artifacts_parent_idx" ON "raw_artifacts" USING btree ("tenant_id","parent_artifact_id");--> statement-breakpoint
CREATE UNIQUE INDEX "raw_parsed_rows_unique" ON "raw_parsed_rows" USING btree ("raw_artifact_id","parser","parser_version","row_index");--> statement-breakpoint
CREATE INDEX "raw_parsed_rows_tenant_artifact_idx" ON "raw_parsed_rows" USING btree ("tenant_id","raw_artifact_id","parser","parser_version","row_index");--> statement-breakpoint
CREATE INDEX "service_tokens_tenant_idx" ON "service_tokens" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tenants_identity_unique" ON "tenants" USING btree ("identity_issuer","identity_subject");--> statement-breakpoint
CREATE INDEX "tenants_org_idx" ON "tenants" USING btree ("org_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "users_tenant_idx" ON "users" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "verification_tokens_digest_unique" ON "verification_tokens" USING btree ("token_digest");--> statement-breakpoint
CREATE INDEX "verification_tokens_tenant_idx" ON "verification_tokens" USING btree ("tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_dead_letters_delivery_unique" ON "webhook_dead_letters" USING btree ("delivery_id");--> statement-breakpoint
CREATE INDEX "webhook_dead_letters_tenant_idx" ON "webhook_dead_letters" USING btree ("tenant_id","endpoint_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_endpoint_event_unique" ON "webhook_deliveries" USING btree ("endpoint_id","event_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_tenant_idx" ON "webhook_deliveries" USING btree ("tenant_id","endpoint_id","id");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_tenant_idx" ON "webhook_endpoints" USING btree ("tenant_id","id");