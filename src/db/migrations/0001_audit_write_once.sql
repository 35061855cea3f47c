-- The audit chain is append-only on both engines, enforced by the database itself whatever the
-- application does. Tenant deletion keeps it (spec, "Tenants").

-- audit_events: content is written once at insert; the sequencer then writes seq, prev_hash, hash and
-- sequenced_at exactly once. Nothing else may ever change, and nothing may be deleted.
CREATE FUNCTION "steward_audit_events_write_once"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'audit_events is append-only: DELETE refused' USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.seq IS NOT NULL THEN
    RAISE EXCEPTION 'audit event % is sealed (seq %): UPDATE refused', OLD.id, OLD.seq USING ERRCODE = 'restrict_violation';
  END IF;
  IF (NEW.id, NEW.tenant_id, NEW.recorded_order, NEW.layer, NEW.actor_type, NEW.actor_id, NEW.action, NEW.entity_type,
      NEW.entity_id, NEW.inputs, NEW.outputs, NEW.evidence_ids, NEW.request_id, NEW.created_at)
     IS DISTINCT FROM
     (OLD.id, OLD.tenant_id, OLD.recorded_order, OLD.layer, OLD.actor_type, OLD.actor_id, OLD.action, OLD.entity_type,
      OLD.entity_id, OLD.inputs, OLD.outputs, OLD.evidence_ids, OLD.request_id, OLD.created_at) THEN
    RAISE EXCEPTION 'audit event % content cannot change: UPDATE refused', OLD.id USING ERRCODE = 'restrict_violation';
  END IF;
  IF NEW.seq IS NULL THEN
    RAISE EXCEPTION 'audit event % may only be updated to seal it', OLD.id USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_events_write_once" BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "steward_audit_events_write_once"();
--> statement-breakpoint
-- Merkle batches and their on-chain publications are insert-only.
CREATE FUNCTION "steward_refuse_mutation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'table % is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_anchors_insert_only" BEFORE UPDATE OR DELETE ON "audit_anchors"
  FOR EACH ROW EXECUTE FUNCTION "steward_refuse_mutation"();
--> statement-breakpoint
CREATE TRIGGER "audit_anchor_publications_insert_only" BEFORE UPDATE OR DELETE ON "audit_anchor_publications"
  FOR EACH ROW EXECUTE FUNCTION "steward_refuse_mutation"();
--> statement-breakpoint
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "steward_refuse_mutation"();
--> statement-breakpoint
CREATE TRIGGER "audit_anchors_no_truncate" BEFORE TRUNCATE ON "audit_anchors"
  FOR EACH STATEMENT EXECUTE FUNCTION "steward_refuse_mutation"();
--> statement-breakpoint
CREATE TRIGGER "audit_anchor_publications_no_truncate" BEFORE TRUNCATE ON "audit_anchor_publications"
  FOR EACH STATEMENT EXECUTE FUNCTION "steward_refuse_mutation"();
