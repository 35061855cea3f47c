-- The audit trail's integrity, enforced by the database itself on both engines, whatever the
-- application does. Tenant deletion keeps all of it (spec, "Tenants").

CREATE FUNCTION "steward_refuse_mutation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'table % is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
END
$$;
--> statement-breakpoint
-- The chain, its Merkle batches and their publications are insert-only.
CREATE TRIGGER "audit_events_insert_only" BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "steward_refuse_mutation"();
--> statement-breakpoint
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "steward_refuse_mutation"();
--> statement-breakpoint
CREATE TRIGGER "audit_anchors_insert_only" BEFORE UPDATE OR DELETE ON "audit_anchors"
  FOR EACH ROW EXECUTE FUNCTION "steward_refuse_mutation"();
--> statement-breakpoint
CREATE TRIGGER "audit_anchors_no_truncate" BEFORE TRUNCATE ON "audit_anchors"
  FOR EACH STATEMENT EXECUTE FUNCTION "steward_refuse_mutation"();
--> statement-breakpoint
CREATE TRIGGER "audit_anchor_publications_insert_only" BEFORE UPDATE OR DELETE ON "audit_anchor_publications"
  FOR EACH ROW EXECUTE FUNCTION "steward_refuse_mutation"();
--> statement-breakpoint
CREATE TRIGGER "audit_anchor_publications_no_truncate" BEFORE TRUNCATE ON "audit_anchor_publications"
  FOR EACH STATEMENT EXECUTE FUNCTION "steward_refuse_mutation"();
--> statement-breakpoint
-- The inbox: an event never changes, and leaves only once its sealed copy (same id, same content) is in
-- audit_events. No audit record can be lost between being recorded and being linked.
CREATE FUNCTION "steward_audit_inbox_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    RAISE EXCEPTION 'audit_inbox rows never change: UPDATE refused' USING ERRCODE = 'restrict_violation';
  END IF;
  IF NOT EXISTS (
    SELECT 1 FROM audit_events event
    WHERE event.id = OLD.id AND event.tenant_id = OLD.tenant_id AND event.recorded_order = OLD.recorded_order
      AND (event.layer, event.actor_type, event.actor_id, event.action, event.entity_type, event.entity_id, event.inputs,
           event.outputs, event.evidence_ids, event.request_id, event.created_at)
          IS NOT DISTINCT FROM
          (OLD.layer, OLD.actor_type, OLD.actor_id, OLD.action, OLD.entity_type, OLD.entity_id, OLD.inputs,
           OLD.outputs, OLD.evidence_ids, OLD.request_id, OLD.created_at)
  ) THEN
    RAISE EXCEPTION 'audit event % is not in the chain yet: DELETE from audit_inbox refused', OLD.id USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN OLD;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_inbox_guard" BEFORE UPDATE OR DELETE ON "audit_inbox"
  FOR EACH ROW EXECUTE FUNCTION "steward_audit_inbox_guard"();
--> statement-breakpoint
CREATE TRIGGER "audit_inbox_no_truncate" BEFORE TRUNCATE ON "audit_inbox"
  FOR EACH STATEMENT EXECUTE FUNCTION "steward_refuse_mutation"();
--> statement-breakpoint
-- Every event, linked or not yet: what the read side reads.
CREATE VIEW "audit_event_log" AS
  SELECT id, tenant_id, layer, actor_type, actor_id, action, entity_type, entity_id, inputs, outputs, evidence_ids,
         request_id, created_at, recorded_order, seq, prev_hash, hash, sequenced_at
  FROM audit_events
  UNION ALL
  SELECT id, tenant_id, layer, actor_type, actor_id, action, entity_type, entity_id, inputs, outputs, evidence_ids,
         request_id, created_at, recorded_order, NULL::bigint, NULL::text, NULL::text, NULL::timestamptz
  FROM audit_inbox;
--> statement-breakpoint
-- Ledger versions are immutable: the only change ever allowed is closing a version's system time,
-- once (superseded_at from null to a time), when the next version is recorded. Tenant deletion removes rows.
CREATE FUNCTION "steward_ledger_version_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.superseded_at IS NOT NULL OR NEW.superseded_at IS NULL
     OR (to_jsonb(NEW) - 'superseded_at') IS DISTINCT FROM (to_jsonb(OLD) - 'superseded_at') THEN
    RAISE EXCEPTION 'ledger rows are immutable (% version %): only superseded_at may be set, once', TG_TABLE_NAME, OLD.version_id
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "ledger_accounts_immutable" BEFORE UPDATE ON "ledger_accounts" FOR EACH ROW EXECUTE FUNCTION "steward_ledger_version_guard"();
--> statement-breakpoint
CREATE TRIGGER "ledger_balances_immutable" BEFORE UPDATE ON "ledger_balances" FOR EACH ROW EXECUTE FUNCTION "steward_ledger_version_guard"();
--> statement-breakpoint
CREATE TRIGGER "ledger_counterparties_immutable" BEFORE UPDATE ON "ledger_counterparties" FOR EACH ROW EXECUTE FUNCTION "steward_ledger_version_guard"();
--> statement-breakpoint
CREATE TRIGGER "ledger_transactions_immutable" BEFORE UPDATE ON "ledger_transactions" FOR EACH ROW EXECUTE FUNCTION "steward_ledger_version_guard"();
--> statement-breakpoint
CREATE TRIGGER "ledger_invoices_immutable" BEFORE UPDATE ON "ledger_invoices" FOR EACH ROW EXECUTE FUNCTION "steward_ledger_version_guard"();
--> statement-breakpoint
CREATE TRIGGER "ledger_obligations_immutable" BEFORE UPDATE ON "ledger_obligations" FOR EACH ROW EXECUTE FUNCTION "steward_ledger_version_guard"();
--> statement-breakpoint
CREATE TRIGGER "ledger_reconciliation_matches_immutable" BEFORE UPDATE ON "ledger_reconciliation_matches" FOR EACH ROW EXECUTE FUNCTION "steward_ledger_version_guard"();
--> statement-breakpoint
-- Parsed rows are append-only: a new parser version adds rows, nothing edits one.
CREATE TRIGGER "raw_parsed_rows_no_update" BEFORE UPDATE ON "raw_parsed_rows" FOR EACH ROW EXECUTE FUNCTION "steward_refuse_mutation"();
