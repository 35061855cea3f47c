-- Endpoints disabled before 0022 added disabled_at have none, so a fan-out that reaches one of them
-- after the disable skips the events recorded before it instead of parking them as dead letters. Their
-- last change is the best instant known: no earlier than the disable, so an event is parked, never lost.
UPDATE "webhook_endpoints" SET "disabled_at" = "updated_at" WHERE "status" = 'disabled' AND "disabled_at" IS NULL;
