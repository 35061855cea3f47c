DROP INDEX "ledger_entity_keys_entity_idx";--> statement-breakpoint
DROP INDEX "ledger_transactions_history_idx";--> statement-breakpoint
DROP INDEX "raw_parsed_rows_tenant_artifact_idx";--> statement-breakpoint
DROP INDEX "raw_parsed_rows_unique";--> statement-breakpoint
CREATE INDEX "ledger_transactions_amount_idx" ON "ledger_transactions" USING btree ("tenant_id","amount","transaction_date") WHERE "ledger_transactions"."superseded_at" is null;--> statement-breakpoint
CREATE INDEX "raw_artifacts_retention_idx" ON "raw_artifacts" USING btree ("tombstoned_at") WHERE "raw_artifacts"."status" = 'tombstoned' and "raw_artifacts"."bytes_purged_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "raw_parsed_rows_unique" ON "raw_parsed_rows" USING btree ("tenant_id","raw_artifact_id","parser","parser_version","row_index");