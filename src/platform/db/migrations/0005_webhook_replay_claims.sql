-- A manual replay claims each dead letter it attempts (src/modules/webhooks/webhooks.service.ts, replay): the
-- claim's token and expiry let concurrent replays skip a dead letter another one is sending, and let a
-- replay that stopped mid-attempt lose its claim when the expiry passes.
ALTER TABLE "webhook_dead_letters" ADD COLUMN "claim_token" text;--> statement-breakpoint
ALTER TABLE "webhook_dead_letters" ADD COLUMN "claimed_until" timestamp with time zone;
