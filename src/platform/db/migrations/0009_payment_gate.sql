CREATE TABLE "payment_gate_runs" (
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"payment_intent_id" text NOT NULL,
	"mode" text NOT NULL,
	"passed" boolean NOT NULL,
	"checks" jsonb NOT NULL,
	"audit_event_id" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_gate_runs_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "payment_gate_runs_mode_check" CHECK ("payment_gate_runs"."mode" in ('execute', 'resume'))
);
--> statement-breakpoint
CREATE TABLE "payment_outbox" (
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"payment_intent_id" text NOT NULL,
	"rail" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_outbox_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "payment_outbox_status_check" CHECK ("payment_outbox"."status" in ('pending', 'claimed', 'done'))
);
--> statement-breakpoint
CREATE TABLE "payment_reservations" (
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"payment_intent_id" text NOT NULL,
	"account_id" text NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_reservations_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "payment_reservations_status_check" CHECK ("payment_reservations"."status" in ('active', 'consumed', 'released')),
	CONSTRAINT "payment_reservations_amount_check" CHECK ("payment_reservations"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "payment_gate_runs" ADD CONSTRAINT "payment_gate_runs_intent_fk" FOREIGN KEY ("tenant_id","payment_intent_id") REFERENCES "public"."payment_intents"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_outbox" ADD CONSTRAINT "payment_outbox_intent_fk" FOREIGN KEY ("tenant_id","payment_intent_id") REFERENCES "public"."payment_intents"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_reservations" ADD CONSTRAINT "payment_reservations_intent_fk" FOREIGN KEY ("tenant_id","payment_intent_id") REFERENCES "public"."payment_intents"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_gate_runs_intent_idx" ON "payment_gate_runs" USING btree ("tenant_id","payment_intent_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_outbox_intent_unique" ON "payment_outbox" USING btree ("tenant_id","payment_intent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_reservations_intent_unique" ON "payment_reservations" USING btree ("tenant_id","payment_intent_id");--> statement-breakpoint
CREATE INDEX "payment_reservations_account_active_idx" ON "payment_reservations" USING btree ("tenant_id","account_id") WHERE "payment_reservations"."status" = 'active';