ALTER TABLE "ledger_jobs" ADD COLUMN "progress" jsonb;--> statement-breakpoint
ALTER TABLE "raw_artifacts" ADD COLUMN "parsed_rows" integer;--> statement-breakpoint
ALTER TABLE "raw_artifacts" ADD COLUMN "extraction_failed_row" integer;--> statement-breakpoint
CREATE INDEX "ledger_jobs_artifact_idx" ON "ledger_jobs" USING btree ("tenant_id",("input" ->> 'artifact_id'),"created_at") WHERE "ledger_jobs"."kind" = 'normalize';--> statement-breakpoint
CREATE INDEX "raw_artifacts_ingested_idx" ON "raw_artifacts" USING btree ("tenant_id","ingested_at","id");--> statement-breakpoint
-- Custom: artifacts extracted before parsed_rows existed get their count (rows of their parser version); failed and skipped ones wrote none.
UPDATE "raw_artifacts" SET "parsed_rows" = CASE WHEN "extraction_status" = 'succeeded' THEN (
  SELECT count(*)::int FROM "raw_parsed_rows" p
  WHERE p."tenant_id" = "raw_artifacts"."tenant_id" AND p."raw_artifact_id" = "raw_artifacts"."id"
    AND p."parser" = "raw_artifacts"."parser" AND p."parser_version" = "raw_artifacts"."parser_version"
) ELSE 0 END
WHERE "extraction_status" IN ('succeeded', 'failed', 'skipped');
