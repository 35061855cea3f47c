CREATE TABLE "onchain_accounts" (
	"tenant_id" uuid NOT NULL,
	"account_id" text NOT NULL,
	"smart_account" text NOT NULL,
	"token" text NOT NULL,
	"session_key_address" text NOT NULL,
	"chain_id" integer NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "onchain_accounts_tenant_id_account_id_pk" PRIMARY KEY("tenant_id","account_id"),
	CONSTRAINT "onchain_accounts_addresses_check" CHECK ("onchain_accounts"."smart_account" ~ '^0x[0-9a-f]{40}$' and "onchain_accounts"."token" ~ '^0x[0-9a-f]{40}$' and "onchain_accounts"."session_key_address" ~ '^0x[0-9a-f]{40}$'),
	CONSTRAINT "onchain_accounts_chain_id_check" CHECK ("onchain_accounts"."chain_id" > 0)
);
--> statement-breakpoint
CREATE TABLE "onchain_submissions" (
	"tenant_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"from_address" text NOT NULL,
	"nonce" integer NOT NULL,
	"hash" text NOT NULL,
	"raw_transaction" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "onchain_submissions_tenant_id_idempotency_key_pk" PRIMARY KEY("tenant_id","idempotency_key"),
	CONSTRAINT "onchain_submissions_from_check" CHECK ("onchain_submissions"."from_address" ~ '^0x[0-9a-f]{40}$'),
	CONSTRAINT "onchain_submissions_hash_check" CHECK ("onchain_submissions"."hash" ~ '^0x[0-9a-f]{64}$'),
	CONSTRAINT "onchain_submissions_nonce_check" CHECK ("onchain_submissions"."nonce" >= 0)
);
