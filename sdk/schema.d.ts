export interface paths {
    "/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description Answers 200 when the database answers, 503 service_unavailable otherwise.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/errors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The error catalogue as JSON */
        get: operations["listErrorCodes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/errors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The error reference (HTML)
         * @description Every docs_url of an error envelope points here, with the code as the fragment.
         */
        get: operations["getErrorReference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deprecated: use POST /v1/execution/agents/register
         * @deprecated
         * @description Not implemented; always answers 404 route_not_found.
         */
        post: operations["registerAgentDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent_id}/propose": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deprecated: use POST /v1/payment-intents or POST /v1/agents/run
         * @deprecated
         * @description Not implemented; always answers 404 route_not_found.
         */
        post: operations["proposeAgentActionDeprecated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/actions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deprecated: use POST /v1/payment-intents or POST /v1/agents/run
         * @deprecated
         * @description Not implemented; always answers 404 route_not_found, as does every path below /v1/actions (propose, get, approve, execute, cancel, events), which this document does not list.
         */
        get: operations["listActionsDeprecated"];
        /**
         * Deprecated: use POST /v1/payment-intents or POST /v1/agents/run
         * @deprecated
         * @description Not implemented; always answers 404 route_not_found, as does every path below /v1/actions (propose, get, approve, execute, cancel, events), which this document does not list.
         */
        put: operations["replaceActionsDeprecated"];
        /**
         * Deprecated: use POST /v1/payment-intents or POST /v1/agents/run
         * @deprecated
         * @description Not implemented; always answers 404 route_not_found, as does every path below /v1/actions (propose, get, approve, execute, cancel, events), which this document does not list.
         */
        post: operations["createActionDeprecated"];
        /**
         * Deprecated: use POST /v1/payment-intents or POST /v1/agents/run
         * @deprecated
         * @description Not implemented; always answers 404 route_not_found, as does every path below /v1/actions (propose, get, approve, execute, cancel, events), which this document does not list.
         */
        delete: operations["deleteActionsDeprecated"];
        options?: never;
        head?: never;
        /**
         * Deprecated: use POST /v1/payment-intents or POST /v1/agents/run
         * @deprecated
         * @description Not implemented; always answers 404 route_not_found, as does every path below /v1/actions (propose, get, approve, execute, cancel, events), which this document does not list.
         */
        patch: operations["updateActionsDeprecated"];
        trace?: never;
    };
    "/v1/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign up a sandbox tenant
         * @description Creates a tenant and its pending owner. Outside production the email-verification token is returned; in production it is mailed. No Idempotency-Key (there is no tenant to scope it yet): a repeated signup is 409 signup_email_taken.
         */
        post: operations["signUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/verify-email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify an email address
         * @description Consumes a verification token (single use, 24 hours, valid only for its tenant) and activates the user. Optional Idempotency-Key, scoped to the tenant_id of the body: a repeated request gets the first response, where the token would otherwise be spent.
         */
        post: operations["verifyEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/accept-invitation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept a member invitation
         * @description Consumes an invitation token (single use, 7 days, valid only for its tenant), sets the password and activates the member. Optional Idempotency-Key, scoped to the tenant_id of the body: a repeated request gets the first response, where the token would otherwise be spent.
         */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Provision a tenant
         * @description Platform provisioning (X-Platform-Service-Auth). Links the tenant to a platform identity when given: an identity already linked answers 409 tenant_identity_already_linked with details.tenant_id. With owner_email, an owner is invited. Optional Idempotency-Key (the platform's keys, shared by both provisioning routes): a repeated request gets the first response, with the tenant as it is now (404 tenant_not_found once it has been deleted).
         */
        post: operations["provisionTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/orgs/{orgId}/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Provision a tenant in an org
         * @description Platform provisioning (X-Platform-Service-Auth). Links the tenant to a platform identity when given: an identity already linked answers 409 tenant_identity_already_linked with details.tenant_id. With owner_email, an owner is invited. Optional Idempotency-Key (the platform's keys, shared by both provisioning routes): a repeated request gets the first response, with the tenant as it is now (404 tenant_not_found once it has been deleted).
         */
        post: operations["provisionOrgTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read your tenant */
        get: operations["getTenant"];
        put?: never;
        post?: never;
        /**
         * Delete your tenant
         * @description Owner only, own tenant only. Deletes every tenant-scoped row except the audit chain, records tenant.deleted with the per-table counts, and enqueues a durable purge of stored bytes. No Idempotency-Key: once the tenant is deleted its owner's token no longer authenticates, so a retry after success is 401 auth_token_invalid.
         */
        delete: operations["deleteTenant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant_id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List members */
        get: operations["listMembers"];
        put?: never;
        /**
         * Invite a member
         * @description Creates an invited member with a role, approval domains and an optional per-item approval limit. Emits member.changed. Optional Idempotency-Key: a repeated request gets the first response (outside production, the same invitation token).
         */
        post: operations["inviteMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant_id}/members/{member_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a member */
        get: operations["getMember"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a member
         * @description Changes role, approval domains or approval limit (null removes the limit). The owner and your own membership cannot be changed here. Optional Idempotency-Key: a repeated request gets the first response.
         */
        patch: operations["updateMember"];
        trace?: never;
    };
    "/v1/tenants/{tenant_id}/members/{member_id}/deactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deactivate a member
         * @description The member's tokens stop working immediately. Idempotent. Optional Idempotency-Key: a repeated request gets the first response.
         */
        post: operations["deactivateMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant_id}/members/{member_id}/reactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reactivate a member
         * @description Undoes a deactivation: back to active, or invited if the invitation was never accepted. Idempotent. Optional Idempotency-Key: a repeated request gets the first response.
         */
        post: operations["reactivateMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with email and password
         * @description Returns an owner/member JWT valid 900 seconds. An unknown email and a wrong password get the same 401 auth_invalid_credentials. No Idempotency-Key: a retry logs in again (a stored response would keep a live token in the database).
         */
        post: operations["logIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/service-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a break-glass service token
         * @description Sandbox and testnet only (403 auth_service_token_disabled in production or when SERVICE_TOKEN_SECRET is unset). Send SERVICE_TOKEN_SECRET as the bearer. Returns a one-hour service token for the tenant, recorded in the audit chain with its reason. No Idempotency-Key: a retry mints another token, audited like the first (a stored response would keep a live token in the database).
         */
        post: operations["mintServiceToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/siwx/challenge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get a nonce to sign in with a wallet (SIWX)
         * @description Returns a nonce bound to the address, held 300 seconds and usable once, with the exact fields of the EIP-4361 message to sign (domain, URI, version 1, chain id 8453, issued at, expiration time) and the message itself. No Idempotency-Key: a retry gets another nonce; an unused one expires.
         */
        post: operations["createSiwxChallenge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/siwx": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with a wallet (SIWX)
         * @description Send the signed challenge message. A wallet linked as human gets an owner-equivalent token for its member (900 seconds, the member's role scopes); the wallet of an active registered agent gets an agent token (3600 seconds, the agent's plain scopes and a scope_hash claim). Anything else (a bad signature, another domain, URI or chain id, an expired message or nonce, a reused nonce, an unknown wallet) is 401 auth_siwx_invalid; the reason is in the audit log, not the response. No Idempotency-Key: the nonce is single use.
         */
        post: operations["signInWithWallet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The principal behind this credential */
        get: operations["getCurrentPrincipal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant_id}/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List API keys */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Issue an API key
         * @description Read-only (ledger:read, audit:read, governance:read). The secret is in this response only. Issued only where key auth is enabled: in production that needs API_KEY_AUTH_PRODUCTION_ENABLED, otherwise 403 api_key_auth_disabled. Optional Idempotency-Key: a repeated request gets the first response, the same secret included (the secret is not stored; it is derived again).
         */
        post: operations["issueApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant_id}/api-keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an API key */
        get: operations["getApiKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant_id}/api-keys/{key_id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an API key
         * @description Issues a new secret for the key. The old secret stops at once, or after previous_secret_expires_in_seconds (at most 7 days). A revoked key is 409 api_key_revoked; an expired key is 409 api_key_expired. Optional Idempotency-Key: a repeated request gets the first response, the same secret included, and rotates nothing.
         */
        post: operations["rotateApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant_id}/api-keys/{key_id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an API key
         * @description The key stops working at once. Idempotent. Optional Idempotency-Key: a repeated request gets the first response.
         */
        post: operations["revokeApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook endpoints */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Register a webhook endpoint
         * @description Events of the listed types (all when event_types is empty or absent) are POSTed to the URL, signed per Standard Webhooks. The signing secret is in this response only (and in its replay for the same Idempotency-Key). 400 webhook_url_refused when the URL breaks the egress rules. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{endpoint_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a webhook endpoint */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Deletes the endpoint with its deliveries and dead letters; pending attempts are dropped. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint
         * @description Changes the URL (checked again), event types, description (null clears it) or status. A disabled endpoint gets no new deliveries. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/v1/webhooks/{endpoint_id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an endpoint's signing secret
         * @description Returns the new secret once (and in the replay for the same Idempotency-Key). With previous_secret_expires_in_seconds, deliveries carry signatures by both secrets (space-separated in webhook-signature) until the overlap ends. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["rotateWebhookEndpointSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{endpoint_id}/dead-letters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an endpoint's dead letters
         * @description Deliveries that failed 5 automatic attempts, oldest first.
         */
        get: operations["listWebhookDeadLetters"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{endpoint_id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay an endpoint's dead letters
         * @description Re-attempts, synchronously, every dead letter with fewer than 20 attempts, oldest first, at most 50 per call and 4 at a time. Each attempt is counted when its dead letter is claimed, before the request leaves; a dead letter another replay is attempting, or attempted after this call began, is skipped (neither attempted nor remaining). A success deletes the dead letter; a failure records the error. 409 webhook_endpoint_disabled for a disabled endpoint. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["replayWebhookDeadLetters"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List your business events
         * @description The events registered endpoints receive, with the same body (docs/webhooks.md), in id order: ids sort by creation time to the millisecond. Resume with after = the id of the last event handled. An event is given its id when it is recorded, not when its transaction commits, so an event of a long transaction can appear after a later id was read: a client that must see every event re-reads a trailing window with since and deduplicates on id (as steward webhooks listen does). Reads only.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit/anchor/latest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The latest Merkle anchor of your chain
         * @description The most recent closed batch: its root, range, period and how it is anchored (anchoring_mode, guarantee). 404 audit_anchor_not_found before the first batch closes.
         */
        get: operations["getLatestAuditAnchor"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit/entity/{entityType}/{entityId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Events about one entity, in causal order */
        get: operations["listEntityAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit/event/{event_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One event with its Merkle inclusion proof
         * @description inclusion.status says whether the event is linked and batched yet; when included, the proof verifies with OpenZeppelin MerkleProof, the AuditAnchor contract and `npm run audit:verify-proof`.
         */
        get: operations["getAuditEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List events */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Export events (jsonl or csv)
         * @description Queues an export and answers 202 with a status_url that reports progress and, when completed, a download_url. Files are kept 7 days. With Idempotency-Key, a repeated request gets the first response (the export as it was queued; header Idempotent-Replayed: true) and queues nothing; a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["createAuditExport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit/exports/{export_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export status */
        get: operations["getAuditExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit/exports/{export_id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a completed export
         * @description The file as an attachment (application/x-ndjson or text/csv). 409 audit_export_not_ready until it is completed.
         */
        get: operations["downloadAuditExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit/chain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verify your audit chain
         * @description Walks the chain now, in seq order: seq is dense from 1, each prev_hash is the previous event's hash, each hash recomputes from the event's stored fields, the head agrees with the last event, and (check_anchors, default true) every closed Merkle batch's root recomputes from its events. ok: false names the first break. The walk follows a head that moves on while it reads, so it can run on a live service; events not linked yet are counted in unsequenced and checked by a later walk. Reads only; its cost grows with the chain (5,000 events per read). The tenant is the caller's.
         */
        get: operations["verifyAuditChain"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/platform/audit/chain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verify a tenant's audit chain (platform)
         * @description Walks the chain now, in seq order: seq is dense from 1, each prev_hash is the previous event's hash, each hash recomputes from the event's stored fields, the head agrees with the last event, and (check_anchors, default true) every closed Merkle batch's root recomputes from its events. ok: false names the first break. The walk follows a head that moves on while it reads, so it can run on a live service; events not linked yet are counted in unsequenced and checked by a later walk. Reads only; its cost grows with the chain (5,000 events per read). Any tenant, including a deleted one (its chain is preserved); a tenant with no events is ok with events_checked 0.
         */
        get: operations["verifyPlatformAuditChain"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify an inclusion proof (public)
         * @description Send an event hash, its Merkle proof and the claimed root (and optionally the tenant). Answers whether the proof leads to the root and whether the root is anchored. Needs no credential and changes nothing, so it takes no Idempotency-Key: a repeated request is computed again (and says anchored once the root has been anchored since).
         */
        post: operations["verifyAuditProof"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List transactions
         * @description Newest first (transaction_date, then id). since and until bound transaction_date, inclusive. as_of (optional) reads the Ledger as it was recorded at that instant.
         */
        get: operations["listTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/transactions/{transaction_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a transaction
         * @description as_of (optional) reads the Ledger as it was recorded at that instant.
         */
        get: operations["getTransaction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List accounts
         * @description Ordered by id. as_of (optional) reads the Ledger as it was recorded at that instant.
         */
        get: operations["listAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/accounts/{account_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an account with its latest balance
         * @description latest_balance is the account's most recent balance by date (closing preferred over current, available, opening), or null. as_of (optional) reads the Ledger as it was recorded at that instant.
         */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/balances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Balances as of a date
         * @description One balance per account: the latest dated on or before as_of (a date; latest if omitted). known_at reads them as recorded at that instant.
         */
        get: operations["listBalances"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/counterparties": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List counterparties
         * @description Ordered by id. as_of (optional) reads the Ledger as it was recorded at that instant.
         */
        get: operations["listCounterparties"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/counterparties/{counterparty_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a counterparty
         * @description as_of (optional) reads the Ledger as it was recorded at that instant.
         */
        get: operations["getCounterparty"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/counterparties/{counterparty_id}/trust/grant": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Counterparty trust: grant
         * @description unreviewed, acknowledged or paused → trusted. Records a new counterparty version (provenance human_confirmed) and emits ledger.counterparty.updated. 409 ledger_counterparty_trust_transition_invalid from any other state. Trust is advisory: it never lets a payment past policy or the gate. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["grantCounterpartyTrust"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/counterparties/{counterparty_id}/trust/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Counterparty trust: pause
         * @description unreviewed, acknowledged or trusted → paused (restore returns it to the state it was paused from). Records a new counterparty version (provenance human_confirmed) and emits ledger.counterparty.updated. 409 ledger_counterparty_trust_transition_invalid from any other state. Trust is advisory: it never lets a payment past policy or the gate. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["pauseCounterpartyTrust"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/counterparties/{counterparty_id}/trust/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Counterparty trust: restore
         * @description paused → the state it was paused from. Records a new counterparty version (provenance human_confirmed) and emits ledger.counterparty.updated. 409 ledger_counterparty_trust_transition_invalid from any other state. Trust is advisory: it never lets a payment past policy or the gate. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["restoreCounterpartyTrust"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/counterparties/{counterparty_id}/trust/acknowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Counterparty trust: acknowledge
         * @description unreviewed → acknowledged: a member has seen it, without a trust decision. Records a new counterparty version (provenance human_confirmed) and emits ledger.counterparty.updated. 409 ledger_counterparty_trust_transition_invalid from any other state. Trust is advisory: it never lets a payment past policy or the gate. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["acknowledgeCounterpartyTrust"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Invoices: the receivables inventory
         * @description Every receivable invoice (direction=payable lists bills), ordered by id, with amount_due. as_of (optional) reads the Ledger as it was recorded at that instant.
         */
        get: operations["listInvoices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/invoices/{invoice_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an invoice
         * @description as_of (optional) reads the Ledger as it was recorded at that instant.
         */
        get: operations["getInvoice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/obligations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List obligations
         * @description scenario ar selects receivable obligations and ap payable ones, unless direction is given. Any other scenario is 400 request_params_invalid. as_of (optional) reads the Ledger as it was recorded at that instant.
         */
        get: operations["listObligations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/obligations/{obligation_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an obligation
         * @description as_of (optional) reads the Ledger as it was recorded at that instant.
         */
        get: operations["getObligation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/normalize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Normalize one parsed row now
         * @description Synchronous and idempotent: the same parsed row always resolves to the same entity ids, and normalizing it again writes nothing (outcome unchanged). Extraction already normalizes every row automatically; this is for a row of another parser version, or to see what a row became. target_entities is accepted and ignored (it is no part of the request an Idempotency-Key is compared with). 404 ledger_parsed_row_not_found, 410 raw_artifact_tombstoned, 422 ledger_parsed_row_unsupported. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["normalizeParsedRow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/reconcile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run reconciliation
         * @description Queues a reconciliation run over the current Ledger and answers 202 with the job; poll GET /v1/ledger/reconcile/{job_id}. Runs also start by themselves after each normalized artifact. Matches appear in GET /v1/ledger/reconciliation-matches. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused. A replay answers the job as first answered (queued) and queues no other run.
         */
        post: operations["requestReconciliation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/reconcile/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A reconciliation run
         * @description The run POST /v1/ledger/reconcile answered with (or one queued after a normalization): status, when it started and finished, why it failed, and once it succeeded its outcome (matches found, retired statement checks, entities created, unchanged and superseded). 404 ledger_job_not_found for an id that names no reconciliation of the caller's tenant, whatever its shape (a normalization job's id included).
         */
        get: operations["getReconcileJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/jobs/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A normalization or reconciliation job
         * @description status: queued, running, succeeded or failed (with error); result holds counts per kind once finished.
         */
        get: operations["getLedgerJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ledger/reconciliation-matches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List reconciliation matches
         * @description Filters: match_type, status, subject (a record the match involves, e.g. transaction:txn_…). Ordered by id. as_of (optional) reads the Ledger as it was recorded at that instant.
         */
        get: operations["listReconciliationMatches"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/raw/ingest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ingest an artifact (upload, or fetch by URL)
         * @description multipart/form-data with source_type, optional mime_type and source_ref (a JSON object as text), then the file as the last part, streamed to storage (at most 52428800 bytes: 413 raw_artifact_too_large); or JSON with source_type, url, optional source_ref, auth_header and mime_type, fetched by the service. Idempotent by SHA-256 per tenant: 201 for new bytes, 200 with deduplicated true and the original raw_id after (a tombstoned artifact is restored). 415 request_media_type_unsupported, 400 raw_source_unsupported, 403 raw_source_reserved, 400 raw_fetch_refused / raw_fetch_failed (details.reason). With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused. An upload is the same request when its file has the same SHA-256 and size and its fields (source_type, mime_type or the file part's media type, file name, source_ref) are the same; a fetch when source_type, url, source_ref, auth_header and mime_type are. A repeated fetch with its key is not fetched again; an identical one still running is 409 idempotency_request_in_progress.
         */
        post: operations["ingestRawArtifact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/raw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List artifacts, with how their import went
         * @description The tenant's artifacts, newest first (ingested_at, then raw_id, descending); tombstoned ones are left out. Filters: source_type, extraction_status, and the ingest time (since inclusive, until exclusive). Paginated (default 100, max 1000) with an opaque next_cursor bound to the filters (400 invalid_cursor otherwise). Each artifact is as GET /v1/raw/{raw_id} shows it: extraction status, parsed rows, refused rows with their reasons, and the Ledger's normalization with its progress (rows done of total) and outcome counts. An unknown filter value is 400 request_params_invalid.
         */
        get: operations["listRawArtifacts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/raw/{raw_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an artifact, with a signed URL for its bytes
         * @description signed_url serves the bytes as an attachment for 10 minutes, without a bearer: this service's content route with the filesystem blob store, a presigned GET on the bucket with an S3-compatible store. 404 raw_artifact_not_found, 410 raw_artifact_tombstoned.
         */
        get: operations["getRawArtifact"];
        put?: never;
        post?: never;
        /**
         * Tombstone an artifact
         * @description 204. A member with raw:write tombstones any artifact of the tenant; an agent or service token only one it contributed (403 auth_scope_insufficient otherwise). Reads, the content URL and a second DELETE then answer 410 raw_artifact_tombstoned (a second DELETE with the first one's Idempotency-Key replays its 204). The bytes are purged 30 days later (docs/raw.md); parsed rows and Ledger rows stay. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        delete: operations["tombstoneRawArtifact"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/raw/{raw_id}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an artifact's bytes (signed URL)
         * @description The URL from GET /v1/raw/{raw_id}: no bearer, the signature is the credential. Served as an attachment with the stored media type and X-Content-Type-Options: nosniff. 403 raw_signature_invalid when altered or expired; 410 once tombstoned.
         */
        get: operations["downloadRawArtifactContent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/raw/{raw_id}/parsed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An artifact's parsed rows
         * @description Ordered by parser, parser_version, row_index; filter by parser and parser_version. Paginated (default 100, max 1000). 410 once tombstoned.
         */
        get: operations["listParsedRows"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/raw/webhooks/{provider}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receive a provider webhook (signed, no bearer)
         * @description X-Provider-Account names the connection (configured out of band with npm run connectors); X-Provider-Signature signs the raw body (docs/raw.md). Any failure is 401 raw_webhook_signature_invalid. The body (JSON, at most 10485760 bytes) becomes an artifact: 202 with artifacts 1, or 0 on a replay of the same bytes. No Idempotency-Key: the signature, not a member, authenticates the delivery, and the same bytes are recorded once.
         */
        post: operations["receiveProviderWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/platform/connectors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a tenant's provider connections
         * @description Every connection of the tenant, in creation order, without secrets. 404 tenant_not_found for an unknown tenant.
         */
        get: operations["listPlatformConnectors"];
        put?: never;
        /**
         * Connect a provider account to a tenant
         * @description Creates an active connection with a new signing secret, or re-activates the tenant's revoked connection of that account with a new secret. 404 tenant_not_found; 409 source_already_connected when the account is connected (to this tenant and not revoked, or to another tenant). Audited as raw.source_status_changed (layer raw, actor platform) and announced as raw.source.status_changed, in the change's transaction. With Idempotency-Key (scoped to the tenant_id of the body), a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused. A replay returns the same secret.
         */
        post: operations["addPlatformConnector"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/platform/connectors/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a connection
         * @description Its webhooks are refused (401 raw_webhook_signature_invalid) until it is resumed. A connection that already has the status is answered with changed: false and nothing is recorded. 404 source_not_found when the tenant has no such connection; 409 source_revoked to pause or resume a revoked one. Audited as raw.source_status_changed (layer raw, actor platform) and announced as raw.source.status_changed, in the change's transaction. With Idempotency-Key (scoped to the tenant_id of the body), a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["pausePlatformConnector"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/platform/connectors/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a paused connection
         * @description Its webhooks are accepted again, signed with its current secret. A connection that already has the status is answered with changed: false and nothing is recorded. 404 source_not_found when the tenant has no such connection; 409 source_revoked to pause or resume a revoked one. Audited as raw.source_status_changed (layer raw, actor platform) and announced as raw.source.status_changed, in the change's transaction. With Idempotency-Key (scoped to the tenant_id of the body), a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["resumePlatformConnector"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/platform/connectors/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke a connection
         * @description For good: only adding the account again (with a new secret) re-activates it. A connection that already has the status is answered with changed: false and nothing is recorded. 404 source_not_found when the tenant has no such connection; 409 source_revoked to pause or resume a revoked one. Audited as raw.source_status_changed (layer raw, actor platform) and announced as raw.source.status_changed, in the change's transaction. With Idempotency-Key (scoped to the tenant_id of the body), a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["revokePlatformConnector"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/platform/connectors/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Give a connection a new signing secret
         * @description The old secret stops verifying at once (no overlap). 404 source_not_found; 409 source_revoked for a revoked connection. Audited as raw.source_status_changed (layer raw, actor platform) and announced as raw.source.status_changed, in the change's transaction. With Idempotency-Key (scoped to the tenant_id of the body), a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused. A replay returns the same secret.
         */
        post: operations["rotatePlatformConnectorSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/schemas/policy-content.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The policy content JSON Schema
         * @description The published schema of the policy language: what compose and simulate-historical accept, and what lint checks first.
         */
        get: operations["getPolicyContentSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policy/{tenant_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The active policy
         * @description 404 policy_not_found when no version is active.
         */
        get: operations["getActivePolicy"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policy/{tenant_id}/compose": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Compose a policy version
         * @description Stores the content as the tenant's next version, pending_signatures, and returns the EIP-712 typed data each signer signs (domain Steward Policy / 1 / chain 8453; message tenantId, policyId, version, contentHash, quorumRequired). Invalid content is 400 request_body_invalid with details.issues (paths under /content). warnings lists lint errors and warnings, quorum_below_active and quorum_exceeds_signers. A version activates once its distinct authorized signers reach its quorum_required and never fewer than the active version's quorum. Optional Idempotency-Key: a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["composePolicyVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policy/{tenant_id}/sign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign a pending policy version
         * @description Each signature is verified against signing_payload and must come from an authorized signer: a wallet linked to the tenant as human, of an active member. Any bad, duplicate (in the request or already recorded) or unauthorized signature is 401 policy_signature_invalid (details: index, address, reason) and nothing is recorded. A version not awaiting signatures (active or superseded) is 409 policy_quorum_not_met. At quorum the version activates; the previous active one gets deactivated_at, and older pending versions are superseded. Optional Idempotency-Key: a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused. A replay answers as the first call did, even once the version it activated no longer awaits signatures; a refused call stores nothing.
         */
        post: operations["signPolicyVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policy/{tenant_id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Policy versions
         * @description Every version, newest first: pending, active and superseded (state says which).
         */
        get: operations["listPolicyVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policy/{tenant_id}/evaluate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Evaluate an action against the active policy
         * @description Accepts only kind, counterparty_id, amount, agent_role and timestamp. Reserves nothing, proposes nothing and issues no verdict, but every call records a policy.evaluate audit event and emits the policy.evaluate webhook event. Rules on agent_id, tenant_category, confidence, evidence_score, risk_level, spend_in_window, tx_count_in_window, behavior_hash or action_id see those keys unpopulated here and may evaluate differently in the gate. An amount with more fraction digits than its currency has is 400 validation_failed (nothing is recorded). Optional Idempotency-Key: a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused. A replay returns the first decision and audit_event_id and records nothing more, even if another version has been activated since.
         */
        post: operations["evaluatePolicy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policy/{tenant_id}/lint": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Lint policy content
         * @description Never refuses the content: schema violations, unknown keys, unreachable or shadowed rules, missing lists, currency mismatches, money auto-execution without caps… are findings. Writes nothing, so it takes no Idempotency-Key: a repeat computes again.
         */
        post: operations["lintPolicyContent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policy/{tenant_id}/simulate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Simulate an action against a stored version
         * @description Any version (pending ones too). The action may also carry the gate-populated fields. Records nothing. 404 policy_not_found for an unknown version; 400 validation_failed for an amount with more fraction digits than its currency has. Writes nothing, so it takes no Idempotency-Key: a repeat computes again.
         */
        post: operations["simulatePolicy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policy/{tenant_id}/simulate-historical": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Simulate candidate content against recorded history
         * @description Replays the tenant's recorded outflows dated in the period (current Ledger transactions, direction outflow, as outbound_payment actions: amount = the magnitude, counterparty_id) through the candidate and the active policy. period_end − period_start is at most 366 days. At most 10000 actions (oldest first; truncated says when there were more). Records nothing. Writes nothing, so it takes no Idempotency-Key: a repeat computes again.
         */
        post: operations["simulatePolicyHistorically"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policy/{tenant_id}/diff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Diff two stored versions
         * @description Rules matched by id: added, removed, and modified (one entry per changed field). 404 policy_not_found for an unknown version. Writes nothing, so it takes no Idempotency-Key: a repeat computes again.
         */
        post: operations["diffPolicyVersions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant_id}/wallets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List linked wallets
         * @description Ordered by id.
         */
        get: operations["listWallets"];
        put?: never;
        /**
         * Link a wallet
         * @description Links an address to this tenant (stored lower-cased). An address is linked to at most one tenant in the service: 409 wallet_already_linked. An address an agent is registered with (in any tenant, or on chain) is 409 wallet_already_linked too, unless this is that agent's own link (principal_type agent, principal_id the agent, this tenant): no tenant can take another's agent wallet. A human wallet is the calling member's own (principal_id omitted or the caller's user id; anyone else's is 400): it signs in as them by SIWX and is an authorized policy signer while they are active. An agent wallet needs principal_id. Optional Idempotency-Key: a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused. A replay returns the linked wallet rather than 409 wallet_already_linked.
         */
        post: operations["linkWallet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant_id}/wallets/{wallet_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Unlink a wallet
         * @description Unlinks a wallet of this tenant (any principal type): the address no longer signs in here through the link (an agent wallet the chain registers still signs in as its agent), a member's token from a SIWX sign-in with it stops working, it no longer counts as a policy signer, and it may be linked again, here or by another tenant. Policy signatures already recorded keep their signer addresses. Audited wallet.unlinked with what the link was. An id that names no wallet of this tenant is 404 wallet_not_found; a wallet whose signature holds the active policy's quorum is 409 wallet_signs_active_policy (the gate counts the signers again on every payment): activate a version signed without it first. Optional Idempotency-Key: a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused. A replay returns the same answer rather than 404.
         */
        delete: operations["unlinkWallet"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payment-intents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payment intents
         * @description Newest first; filters by status, action type, proposing agent and creation time; a cursor is bound to its filters.
         */
        get: operations["listPaymentIntents"];
        put?: never;
        /**
         * Propose a payment
         * @description Checks the proposal against the Ledger, evaluates the active policy with every gate-populated key (agent, action type, confidence, evidence score, counterparty risk, spend and count in the window) and answers 201 with the PolicyDecision attached and the status it leads to: approved, pending_approval (the policy said confirm, or the hard human-approval floor holds it) or rejected. 400 validation_failed (currency and amount rules; a proposal naming an invoice_id must pay that invoice: its counterparty, its currency, at most what is outstanding), 404 for an account, counterparty, invoice, obligation or evidence row that is not the tenant's, 409 invoice_already_paid, 409 invoice_not_payable (cancelled, no counterparty, or `reason: being_paid`: other intents already pay what it has outstanding, or the pay_invoice shortcut's whole amount does not fit beside them; a smaller explicit amount that does not fit is 400 validation_failed naming what is left), 409 agent_proposal_duplicate (the same agent proposed the same action within 24 hours), 409 policy_not_active, 422 obligation_direction_invalid. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["createPaymentIntent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payment-intents/{payment_intent_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a payment intent */
        get: operations["getPaymentIntent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payment-intents/{payment_intent_id}/replay-investigation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Investigate a payment intent
         * @description The intent, its rail executions, its policy decision id and its evidence.
         */
        get: operations["getPaymentIntentReplayInvestigation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payment-intents/{payment_intent_id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a payment intent
         * @description No body. Approved once the distinct approvals reach approvals_required, else awaiting_second_approval (a distinct second member must approve). 403 payment_intent_approval_invalid with details.reason (actor_unresolved, actor_inactive, domain_not_authorized, actor_limit_exceeded, self_approval_blocked, second_approval_required) when the member may not; 409 payment_intent_invalid_state from a status that does not allow it. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["approvePaymentIntent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payment-intents/{payment_intent_id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject a payment intent
         * @description Optional reason (at most 500 characters). From pending_approval or awaiting_second_approval. 403 payment_intent_approval_invalid with details.reason (actor_unresolved, actor_inactive, domain_not_authorized, actor_limit_exceeded, self_approval_blocked, second_approval_required) when the member may not; 409 payment_intent_invalid_state from a status that does not allow it. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["rejectPaymentIntent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payment-intents/{payment_intent_id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause an approved payment intent
         * @description No body. approved → paused. 403 payment_intent_approval_invalid with details.reason (actor_unresolved, actor_inactive, domain_not_authorized, actor_limit_exceeded, self_approval_blocked, second_approval_required) when the member may not; 409 payment_intent_invalid_state from a status that does not allow it. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["pausePaymentIntent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payment-intents/{payment_intent_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a payment intent
         * @description No body. From proposed, pending_approval, awaiting_second_approval or paused → cancelled (the spec leaves this HTTP route unshown; the agent protocol's payment_intent.cancel calls the same command for the proposing agent). 403 payment_intent_approval_invalid with details.reason (actor_unresolved, actor_inactive, domain_not_authorized, actor_limit_exceeded, self_approval_blocked, second_approval_required) when the member may not; 409 payment_intent_invalid_state from a status that does not allow it. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["cancelPaymentIntent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payment-intents/{payment_intent_id}/execute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Execute an approved payment intent through the gate
         * @description No body; needs payment_intent:execute, which no external credential carries. Runs the 23 checks of the section 6 gate on one snapshot (docs/gate.md); every run is recorded. A failure is 409 payment_intent_gate_failed whose details name the first failed check (index, name, gate code, reason) and list every failed one; the intent is unchanged. On a pass: 202, the intent is dispatching, its outbox row and (for money leaving a Ledger account) its reservation are written in the same transaction. A money proposal of an agent that is not promoted is a shadow run (governing rule 7): every check runs and is recorded, then the intent ends shadow_completed and nothing is sent or reserved, pass or fail: 202 with status shadow_completed, outbox_id null and `shadow` saying whether the gate passed (docs/execution.md). 409 action_already_executed for an intent already dispatched; 409 payment_intent_invalid_state from any status but approved. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["executePaymentIntent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payment-intents/{payment_intent_id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a paused payment intent
         * @description No body. paused → approved when the live gate passes against the current Ledger. Runs the 23 checks of the section 6 gate on one snapshot (docs/gate.md); every run is recorded. A failure is 409 payment_intent_gate_failed whose details name the first failed check (index, name, gate code, reason) and list every failed one; the intent is unchanged. 403 payment_intent_approval_invalid with details.reason (actor_unresolved, actor_inactive, domain_not_authorized, actor_limit_exceeded, self_approval_blocked, second_approval_required) when the member may not; 409 payment_intent_invalid_state from a status that does not allow it. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["resumePaymentIntent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/proof/{action_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The proof of an action (a payment intent)
         * @description Every field of the spec's Proof, plus the audit events it is built from with their Merkle inclusion (`events`): each field is derived from those events or bound by a digest they carry, so `npm run audit:verify-proof -- proof.json` checks the whole proof offline and names the first field that does not hold. While the action is in motion (dispatching, reconciling, awaiting approval) or its events are not all under a Merkle root, the proof is partial (`partial: true`; merkle_root is empty until the last event's batch closes). 404 proof_not_found for an id that names no payment intent of your tenant.
         */
        get: operations["getProof"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/proof/{action_id}/view": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The proof of an action as a readable page (HTML)
         * @description The same data as GET /v1/proof/{action_id}, as a page: what happened, who decided, every gate check, the rail's receipt, the audit trail and how to verify it. Every value is escaped.
         */
        get: operations["viewProof"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/actions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Propose a non-money finding as the calling agent
         * @description An agent (agent token with payment_intent:propose, or a service token standing for Steward's internal agents) records a finding — a flag, a reminder, a match, … — with its narrative, confidence, evidence refs and details. It becomes a proposal (GET /v1/proposals/{id}, status proposed) that a person acknowledges or rejects. Audited agent.action.proposed, and the event of that name. 400 validation_failed for a payment action type (money moves are PaymentIntents: POST /v1/payment-intents) or one that resolves to no public proposal type; 409 agent_inactive when the agent is halted (quarantined), pending or revoked. The agent protocol's agent_action.propose tool calls the same service. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["proposeAgentAction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The first-party agent catalog and your registered agents
         * @description Every first-party agent (each a deterministic program over your Ledger), in catalog order, then your registered external agents (kind external), in id order. Filters: kind, capability and category (registered agents have neither, so either filter leaves them out), and state (catalog agents: enabled or disabled by default; registered agents: enabled when active).
         */
        get: operations["listAgents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/route": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Which agent should handle an event or intent (advisory)
         * @description Body: exactly one of event (a domain-event name) and intent (free text), plus optional context (context.as_of: the day to run for). Routing is deterministic (docs/agents.md, "Routing"). Nothing runs; the decision is recorded (GET /v1/agents/routing-decisions/{id}) and audited agent.routed. 400 validation_failed without exactly one of event and intent. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["routeAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Route, run the agent on your Ledger, and propose through the gated path
         * @description Body: exactly one of event (a domain-event name) and intent (free text), plus optional context (context.as_of: the day to run for). Routing is deterministic (docs/agents.md, "Routing"). The pipeline: route; run the agent's program on your Ledger; resolve each money proposal's action and dry-run the gate on it (the active policy's decision); propose it as a PaymentIntent through the gated path as the agent (shadow_completed at once when the policy approved it and the agent is not promoted); record findings as proposals; persist the run (audited agent.run.completed). status proposal_created, no_proposal, no_match or unscoped. 409 agent_proposal_duplicate when every proposal the run would make was already made by the agent within 24 hours (details.run_id names the earlier run); 409 agent_inactive when the selected agent is halted (quarantined) or revoked in your tenant. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["runAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue a run for an event or intent
         * @description Body: exactly one of event (a domain-event name) and intent (free text), plus optional context (context.as_of: the day to run for). Routing is deterministic (docs/agents.md, "Routing"). The run (as POST /v1/agents/run, as you) happens in a job; GET /v1/agents/runs shows it with trigger=event and this job_id. Audited agent.event.queued. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["queueAgentEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/routing-decisions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One routing decision
         * @description The input, the selection, the rule that made it and every candidate with its score. 404 agent_routing_decision_not_found.
         */
        get: operations["getRoutingDecision"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Agent runs, newest first
         * @description Filtered by agent_id, status and category; paged by a cursor bound to the filters (400 invalid_cursor).
         */
        get: operations["listAgentRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/runs/{run_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One run and its proposals
         * @description A money proposal's status is its PaymentIntent's now. 404 agent_run_not_found.
         */
        get: operations["getAgentRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/runs/{run_id}/why": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Why the run did what it did
         * @description The structured reason, the reasoning trace (record ids and kinds; the intent text and narratives redacted), the candidate agents and the behaviour hash it ran with. 404 agent_run_not_found.
         */
        get: operations["explainAgentRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/runs/{run_id}/evidence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The evidence the run consulted
         * @description Every Ledger record and parsed row its proposals cite, each once with the proposals citing it, and what it read of the Ledger. 404 agent_run_not_found.
         */
        get: operations["getAgentRunEvidence"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/runs/{run_id}/gate-trace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The gate checks of the run's PaymentIntents
         * @description For each PaymentIntent the run proposed: the policy dry run made before proposing, and every gate run with its checks. Empty for a run with no payment. 404 agent_run_not_found.
         */
        get: operations["getAgentRunGateTrace"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/runs/{run_id}/proof": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The proof of the run's PaymentIntent
         * @description GET /v1/proof/{action_id} for the run's first PaymentIntent (needs audit:read as that route does). 404 agent_run_not_found; 404 proof_not_found when the run proposed no payment.
         */
        get: operations["getAgentRunProof"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One agent: its definition and registration
         * @description For a first-party agent, definition is the catalog entry with shadow_mode (true until an admin promotes the agent for your tenant) and registration is null; for an agent registered in your tenant, definition is null and registration is its record. state and contribution_hold are the agent's in your tenant. 404 agent_not_found for any other id.
         */
        get: operations["getAgent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent_id}/actions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the agent produced in your tenant
         * @description Each proposal, newest first, with its PaymentIntent (id, status now) for payments and null for findings. 404 agent_not_found.
         */
        get: operations["listAgentActions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/execution/agents/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register an external agent
         * @description 201 with the agent: kind external, state pending_onchain, registered_at null. The role fixes its plain scopes and so its scope hash (a scope_hash given must equal it, else 400 validation_failed). The agent becomes active when its AgentRegistry registration is confirmed on chain (the registered_tx given, or the contract's record) with that scope hash; in a sandbox with no chain configured, by the platform's governance resume (docs/agents.md). 409 agent_already_registered for an id your tenant already has; 409 wallet_already_linked for an onchain_address another agent (of any tenant) is registered with, or that is linked to a person or another tenant (a wallet address belongs to one agent in the service). With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["registerAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/halt-category": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Halt every agent of a category
         * @description Halts every active first-party agent of the category in your tenant, as the single-agent halt does each, in one transaction; agents already quarantined are left as they are. Registered agents have no category. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["haltAgentCategory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent_id}/halt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Halt an agent
         * @description Pauses every in-flight (approved) PaymentIntent the agent proposed, sets its state quarantined and holds its Raw contributions, in one transaction; audited (agent.halted, and payment_intent.paused per intent). 404 agent_not_found; 409 agent_inactive unless active. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["haltAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent_id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore a halted agent
         * @description quarantined → active (audited agent.restored). Its paused intents stay paused, and its contribution hold stays until released. 404 agent_not_found when the agent is not registered; 409 agent_inactive unless quarantined. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["restoreAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agent_id}/contribution-hold/release": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Release an agent's contribution hold
         * @description Clears the hold a halt put on the agent's Raw contributions (audited agent.contribution_hold_released); released is false when there was none. 404 agent_not_found. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["releaseAgentContributionHold"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/proposals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Agent proposals, newest first
         * @description Every agent proposal — the first-party agents' findings and payments, and actions agents proposed themselves (POST /v1/agents/actions) — as a Proposal: its public type (resolved in the spec's order: a stored action type that is a public type, the agent's role or catalog key, the explicit map; notify, escalate, create_task and recommend_action by role only), its status (a money proposal's is its PaymentIntent's now, shadow_completed reading approved; a finding's is its latest decision), risk band, policy decision (a finding's: the active policy on an agent_action, evaluated when read), presentation and available decisions (docs/proposals.md). Filters type, status, risk_band, min_confidence (0..1); limit 1 to 100 (default 50); cursor (bound to the filters: a cursor of another filter set is 400 invalid_cursor). next_cursor is null on the last page. With type, status or risk_band, one request reads at most 2,000 proposals: a page may then hold fewer than limit items, even none, and still carry a next_cursor that goes on from the last proposal read.
         */
        get: operations["listProposals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/proposals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One proposal
         * @description Every agent proposal — the first-party agents' findings and payments, and actions agents proposed themselves (POST /v1/agents/actions) — as a Proposal: its public type (resolved in the spec's order: a stored action type that is a public type, the agent's role or catalog key, the explicit map; notify, escalate, create_task and recommend_action by role only), its status (a money proposal's is its PaymentIntent's now, shadow_completed reading approved; a finding's is its latest decision), risk band, policy decision (a finding's: the active policy on an agent_action, evaluated when read), presentation and available decisions (docs/proposals.md). 404 execution_proposal_not_found for an id that names no proposal of your tenant.
         */
        get: operations["getProposal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/proposals/{id}/decide": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve, reject, acknowledge or undo a decision on a proposal
         * @description Body decision approve, reject, acknowledge or undo, optional reason (≤ 500 characters). Only a person decides: an agent, API key or service token is 403 actor_unresolved; a user needs execution:read or payment_intent:approve. A money proposal is approved or rejected through its PaymentIntent, with the member checks in the spec's order (active member, admin or approver role, approval domain, per-item limit, not the payee, a distinct second approver): 403 payment_intent_approval_invalid with details.reason (a repeated approval by the same member is second_approval_required); 409 payment_intent_invalid_state when the intent no longer waits for approval. Approval authorizes the internal settlement path and dispatches no rail. A finding is acknowledged (a person saw it) or rejected (closed) by an active owner, admin or approver whose approval domains cover it (*, its type or its action type; else 403 actor_unresolved with details.reason); undo reverses the acknowledge or reject in force (status undone; it can be decided again). Money decisions are not undone (pause or cancel the intent instead). A decision not among the proposal's available decisions is 409 proposal_decision_unavailable. Every decision is written to the audit log (proposal.decision_recorded) before the status changes, in one transaction; emits proposal.decided when the proposal reaches approved, rejected, acknowledged or undone, and proposal.awaiting_second_approval when a first approval waits for a second member. With Idempotency-Key, a repeated request gets the first decision (header Idempotent-Replayed: true) and the proposal as it reads now; a different request with the same key is 409 idempotency_key_reused. 404 execution_proposal_not_found for an id that names no proposal of your tenant.
         */
        post: operations["decideProposal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/evidence/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resolve evidence refs to records
         * @description Up to 50 refs (kind and ref); each is answered, never an error (51 refs is 400). account, counterparty, invoice, obligation and transaction refs are looked up in your Ledger, wiki_entity refs (any Ledger record id) through the Wiki: found, with summary and deep_link (the API path that reads it); a well-formed ref that names nothing in your tenant is resolvable true, not_found true. document, payment_intent, policy, raw_artifact and any other kind are resolvable false with reason unsupported_kind; a ref that is not an id of its kind (wrong prefix, empty, over 160 characters) reason malformed_ref.
         */
        post: operations["resolveEvidence"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/governance/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A tenant's registered agents (platform)
         * @description In id order, 100 a page by default (at most 500). status pending is pending_onchain; owner is the user who registered the agent (another owner answers an empty list). scopes is always null. A tenant_id that names no tenant is 404 tenant_not_found.
         */
        get: operations["listGovernanceAgents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/governance/agents/{agent_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A registered agent with its lifecycle events (platform)
         * @description lifecycle_events: every audit event about the agent, oldest first. 404 agent_not_found for an id the tenant has not registered. A tenant_id that names no tenant is 404 tenant_not_found.
         */
        get: operations["getGovernanceAgent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Pause, resume or revoke an agent (platform)
         * @description pause: active → quarantined (its approved intents paused, its contributions held); resume: quarantined → active, or pending_onchain → active when no chain is configured (with one, only the chain activates); revoke: any state but revoked → revoked, for good. Audited governance.agent.lifecycle_changed (the reason as its SHA-256). 409 agent_lifecycle_transition_invalid for any other move; 404 agent_not_found. A tenant_id that names no tenant is 404 tenant_not_found.
         */
        patch: operations["transitionGovernanceAgent"];
        trace?: never;
    };
    "/v1/governance/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Agent activity and its policy decisions in a period (platform)
         * @description Every audit event of [period_start, period_end) an agent is answerable for (its proposals, its runs, its lifecycle), each joined to the policy decision it names; rows without a resolvable decision or a native outcome are kept as decision_data_status unavailable with the reason (docs/governance.md). format=csv answers the events as text/csv. 400 validation_failed unless period_start < period_end within 366 days, or past 50,000 audit events in the period. A tenant_id that names no tenant is 404 tenant_not_found.
         */
        get: operations["getGovernanceReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/governance/reports/snapshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Freeze a report (platform)
         * @description Computes the report of the query (JSON) and stores it, immutable: GET /v1/governance/reports/{report_id} answers it as stored, whatever changes after. Audited governance.report.snapshot_created. With Idempotency-Key, the same key and request answer the first snapshot (Idempotent-Replayed: true); the same key with other parameters is 409 idempotency_key_reused. A tenant_id that names no tenant is 404 tenant_not_found.
         */
        post: operations["createGovernanceReportSnapshot"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/governance/reports/{report_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A frozen report (platform)
         * @description The snapshot as it was stored, never computed again. 404 governance_report_not_found for an id the tenant does not have.
         */
        get: operations["getGovernanceReportSnapshot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/wiki/question": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask a question about the books
         * @description Bounded transaction listings, totals, counts and averages with an unambiguous scope (period, account, counterparty, category, direction, currency), cash flow, spending change between two periods, invoice status and listings, bills due and subscriptions are answered by deterministic Ledger queries, read as recorded at as_of (default now); relative periods resolve against as_of's day. The same question with the same as_of gives the same answer. A question that cannot be grounded is answered: false with the reason and suggested questions. Where a language model is configured (LLM_BASE_URL), it only maps a question the parser does not understand onto a query (checked against the query schema) and words the answer from the figures (kept only when every number is among them); its token usage is on the record. Each question is recorded (question_id wqn_…) with an audit event (layer wiki) holding the SHA-256 of the question, query, evidence set and answer: the receipt. With Idempotency-Key, a repeated request gets the first answer (Idempotent-Replayed: true); a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["askWikiQuestion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/wiki/suggested-questions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Questions the tenant's data can answer
         * @description The deterministic question templates whose data the tenant has (no invoices, no invoice questions), ranked by usage_rank_score: how many times each template was asked in the tenant, all time (ties in catalogue order).
         */
        get: operations["listSuggestedQuestions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistant/questions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's question records
         * @description Every question asked in the tenant, newest first, each as it was answered; 50 a page by default (at most 500). No eligibility checks.
         */
        get: operations["listAssistantQuestions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/wiki/entity/{entity_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A Wiki entity (bitemporal)
         * @description A Wiki entity is a Ledger record (account, balance, counterparty, transaction, invoice, obligation, reconciliation match; its Ledger id is the entity_id) seen through the Wiki: its Ledger versions merged with the Wiki's annotations. An id that names nothing of your tenant, whatever its shape, is 404 wiki_entity_not_found. as_of reads it as the Wiki knew it then: the Ledger version recorded by then and not yet superseded, and the annotations recorded by then; an entity not yet recorded at as_of is 404. provenance is human_confirmed when an annotation follows the Ledger version shown.
         */
        get: operations["getWikiEntity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/wiki/entity/{entity_id}/evidence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A Wiki entity's evidence chain
         * @description The Ledger version (now, or at as_of) → the parsed rows it cites (evidence_ids, at most 100; truncated says when there are more) → the Raw artifact each was read from, with parser and confidence. Annotations are not Raw evidence: they are in …/history. A Wiki entity is a Ledger record (account, balance, counterparty, transaction, invoice, obligation, reconciliation match; its Ledger id is the entity_id) seen through the Wiki: its Ledger versions merged with the Wiki's annotations. An id that names nothing of your tenant, whatever its shape, is 404 wiki_entity_not_found.
         */
        get: operations["getWikiEntityEvidence"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/wiki/entity/{entity_id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A Wiki entity's versions, oldest first
         * @description Its Ledger versions and Wiki annotations interleaved by recorded time (a Ledger version first at the same instant), each with its provenance; wiki_version numbers them 1, 2, 3 …. 100 a page by default, at most 500; next_cursor continues (the history only grows at its end). A Wiki entity is a Ledger record (account, balance, counterparty, transaction, invoice, obligation, reconciliation match; its Ledger id is the entity_id) seen through the Wiki: its Ledger versions merged with the Wiki's annotations. An id that names nothing of your tenant, whatever its shape, is 404 wiki_entity_not_found.
         */
        get: operations["getWikiEntityHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/wiki/annotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Annotate an entity or a relation
         * @description One of: an entity annotation (entity_id with a note, labels and/or corrections — field values a person asserts) or a relation annotation (relation_id, a reconciliation match, confirmed or disputed). Applied as a new Wiki version of the subject with provenance human_confirmed and audited in the same transaction (wiki.entity.annotated or wiki.relation.annotated, layer wiki, hashes of the text only). Never changes a Ledger row: corrections are Wiki-level assertions shown beside the record. Needs raw:write and a user bearer (a person confirms; agents and service tokens are 403). 404 wiki_entity_not_found for a subject that names nothing of your tenant. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["annotateWikiEntity"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/wiki/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * JSON Schemas of the Wiki entity kinds
         * @description Kind → the JSON Schema of a Wiki entity of that kind (GET /v1/wiki/entity/{entity_id}), generated from the same definitions the routes answer with. kind narrows it to one; an unknown kind is 400 request_params_invalid.
         */
        get: operations["getWikiSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/wiki/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search policies and agents
         * @description Searches the tenant's policy versions and agents (the catalog and its registered agents), read from their modules at request time. q filters by PostgreSQL full-text search; semantic ranks by similarity — embeddings from the configured model (cached per document text, cosine similarity computed in SQL) or, without one or when it fails, pg_trgm word similarity; semantic_method says which was used. Ranked by similarity when semantic is given, else by full-text rank when q is, else newest first; then kind and id. 50 a page by default, at most 500; next_cursor continues the same query.
         */
        get: operations["searchWiki"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memory/pages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List memory pages
         * @description Page summaries (no content) in slug order, 50 a page by default (at most 500); filter by page_type. Pages are regenerated after every normalization or reconciliation that wrote to the Ledger, and on POST /v1/memory/regenerate.
         */
        get: operations["listMemoryPages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memory/pages/{slug_or_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a memory page by slug or id
         * @description By id (mpg_…) or by slug with its slash percent-encoded (/v1/memory/pages/counterparty%2Fcpy_…); the slug may also be written as two path segments (GET /v1/memory/pages/{slug_or_id}/{slug_rest}). 404 memory_page_not_found for anything naming no page of your tenant. Pages are regenerated after every normalization or reconciliation that wrote to the Ledger, and on POST /v1/memory/regenerate.
         */
        get: operations["getMemoryPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memory/pages/{slug_or_id}/{slug_rest}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a memory page by its slug written as a path
         * @description The same page as GET /v1/memory/pages/{slug_or_id} with the slug percent-encoded: /v1/memory/pages/counterparty/cpy_… reads the page of slug counterparty/cpy_…. 404 memory_page_not_found for a slug naming no page of your tenant.
         */
        get: operations["getMemoryPageBySlugPath"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memory/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search memory pages
         * @description PostgreSQL full-text search over each page's title and content (websearch_to_tsquery with the 'simple' configuration: no stemming, case-insensitive), optionally of one page_type. Page summaries in slug order, 50 a page by default (at most 500), with a cursor. Pages are regenerated after every normalization or reconciliation that wrote to the Ledger, and on POST /v1/memory/regenerate.
         */
        get: operations["searchMemoryPages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memory/regenerate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Regenerate memory pages now
         * @description Synchronous: renders every page of the asked types (all when page_types is absent) from the current Ledger, policy and agents, and answers what changed. A page whose content is unchanged keeps its version; a changed one gets the next; a page whose subject is gone is deleted. Audited memory.pages.regenerated (layer wiki, counts and hashes only). Needs wiki:read and raw:write. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["regenerateMemoryPages"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/execution/agents/{agent_id}/promote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Promote an agent out of shadow mode
         * @description Until promoted, an agent's money proposals run in shadow: the whole pipeline, policy and gate included, ending shadow_completed with no rail call (governing rule 7). A promotion lets its approved payments out within per-payment and per-day caps in one currency, on the rails and (optionally) to the counterparties it names, until it expires; the gate enforces them (check 10). Refused, 409 agent_promotion_refused with details.scorecard and details.unmet, unless the agent's shadow scorecard meets the request's thresholds; the scorecard is in the promotion and its audit event (agent.promoted). A new promotion replaces an open one. 404 agent_not_found, 409 agent_inactive, 400 validation_failed (expiry, caps). With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["promoteAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/execution/agents/{agent_id}/demote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Demote an agent back to shadow mode
         * @description Closes the agent's promotion (audited agent.demoted); its next executes are shadow runs. Payments already dispatched go on. 404 agent_promotion_not_found when it is not promoted, 404 agent_not_found. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["demoteAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/execution/agents/{agent_id}/promotion": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An agent's promotion and shadow scorecard
         * @description The agent's open promotion (null in shadow mode; `active` false once expired) and its shadow scorecard now, to judge a promotion before asking for it. 404 agent_not_found.
         */
        get: operations["getAgentPromotion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rails/bank_ach/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receive a bank_ach provider event (signed, no bearer)
         * @description The ACH provider tells Steward a transfer settled or was returned. X-Provider-Signature signs the raw body with the rail's webhook secret (ACH_WEBHOOK_SECRET), as Raw's provider webhooks are signed (docs/raw.md); any failure is 401 rail_webhook_signature_invalid. Settled: the execution completes and the intent is executed. Returned before settlement: the execution fails and the intent is failed. Returned after settlement: the return is recorded as a second receipt and audited; statuses stay. A redelivery answers applied: false. 404 rail_transfer_unknown when no execution has the event's idempotency_key (the provider redelivers). No Idempotency-Key: the signature authenticates it and an event applies once. Body at most 16384 bytes.
         */
        post: operations["receiveAchRailWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/execution/onchain-accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register the smart account that pays for a Ledger account (onchain_base)
         * @description Binds one of the tenant's Ledger USD accounts to a SmartAccount and the USDC it pays in, on the chain the onchain_base rail serves, and answers the address of the session key Steward will sign with: add it on chain with addSessionKey(key, token, cap, expiry) (the cap in USDC base units, 6 decimals). onchain_transfer amounts are USD, paid one for one in USDC. 201 when registered (audited execution.onchain_account.registered); 200 when the account is already registered with exactly these terms. 404 ledger_account_not_found when the account is not the tenant's; 400 validation_failed for an address that is not one (or zero), an account not in USD, or a token without 6 decimals on the chain; 409 onchain_account_already_registered when registered with other terms (a registration does not change); 409 onchain_rail_not_configured when the deployment has no chain; 503 service_unavailable when the chain cannot be asked. With Idempotency-Key, a repeated request gets the first response (header Idempotent-Replayed: true) without running again, and a different request with the same key is 409 idempotency_key_reused.
         */
        post: operations["registerOnchainAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/execution/onchain-accounts/{account_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a Ledger account's smart-account registration (onchain_base)
         * @description The registration as it was made, with the session key address to add on chain. 404 onchain_account_not_found when the account has none in the tenant.
         */
        get: operations["getOnchainAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Agent protocol (MCP, JSON-RPC 2.0)
         * @description JSON-RPC 2.0 over single-shot HTTP (one request per POST; a batch is -32600), the Model Context Protocol's stateless Streamable HTTP with JSON responses: initialize, ping, tools/list, tools/call, resources/list, resources/templates/list, resources/read, prompts/list, prompts/get. Needs an agent token (SIWX). Before dispatch the agent must be registered and active, its token's scope_hash must equal the on-chain one and its tenant the agent's: a failure is 401 or 403 with the flat body {error_code, message} (agent_inactive is 403 here). Once dispatch starts the status is 200 and failures are JSON-RPC errors: -32700 body not JSON, -32600 not a JSON-RPC request, -32601 unknown method, -32602 invalid params (an unknown tool, resource or prompt, arguments that fail the tool's JSON Schema, and any other catalogue error, whose code is in error.data.error_code), -32001 token missing, invalid or expired, -32002 a scope the tool needs is missing or a tenant_id argument is not the token's tenant, -32003 the agent is not registered or not active, -32004 the pre-execution gate failed (error.data.code the gate_* check), -32005 scope hash mismatch, -32603 internal. A notification (no id) is answered 202 with no body. The tools, resource templates and prompts are listed in docs/mcp.md; each tool calls the same service method as its REST route.
         */
        post: operations["callAgentProtocol"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Account: {
            id: string;
            /** @enum {string} */
            account_type: "bank_checking" | "bank_savings" | "card" | "loan" | "line_of_credit" | "onchain" | "payment_processor";
            /** @enum {string} */
            status: "active" | "closed" | "frozen" | "pending";
            name: string;
            institution: string | null;
            currency: string;
            external_account_id: string | null;
            iban: string | null;
            account_number_masked: string | null;
            wallet_address: string | null;
            chain_id: number | null;
            /** @description This version of the record. */
            version_id: string;
            version: number;
            supersedes: string | null;
            /** @description The Raw artifacts (raw_…) this record came from. */
            source_ids: string[];
            /** @description The parsed rows (rpr_…) this record came from. */
            evidence_ids: string[];
            /** @enum {string} */
            provenance: "extracted" | "inferred" | "ambiguous" | "human_confirmed" | "agent_contributed";
            confidence: number;
            /** @description Source details; `scenario` is `ar` on receivable invoices and obligations and `ap` on payable ones. */
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When the entity was first recorded (system time).
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When this version was recorded (system time).
             */
            updated_at: string;
            superseded_at: string | null;
        };
        AccountWithBalance: {
            id: string;
            /** @enum {string} */
            account_type: "bank_checking" | "bank_savings" | "card" | "loan" | "line_of_credit" | "onchain" | "payment_processor";
            /** @enum {string} */
            status: "active" | "closed" | "frozen" | "pending";
            name: string;
            institution: string | null;
            currency: string;
            external_account_id: string | null;
            iban: string | null;
            account_number_masked: string | null;
            wallet_address: string | null;
            chain_id: number | null;
            /** @description This version of the record. */
            version_id: string;
            version: number;
            supersedes: string | null;
            /** @description The Raw artifacts (raw_…) this record came from. */
            source_ids: string[];
            /** @description The parsed rows (rpr_…) this record came from. */
            evidence_ids: string[];
            /** @enum {string} */
            provenance: "extracted" | "inferred" | "ambiguous" | "human_confirmed" | "agent_contributed";
            confidence: number;
            /** @description Source details; `scenario` is `ar` on receivable invoices and obligations and `ap` on payable ones. */
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When the entity was first recorded (system time).
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When this version was recorded (system time).
             */
            updated_at: string;
            superseded_at: string | null;
            latest_balance: components["schemas"]["Balance"] | null;
        };
        AccountingProviderPayload: {
            /** @enum {string} */
            schema: "steward.accounting_provider.v1";
            provider: {
                id: string;
                name?: string;
            };
            customers: {
                id: string;
                name: string;
                email?: string;
                tax_id?: string;
                iban?: string;
                account_number?: string;
            }[];
            vendors: {
                id: string;
                name: string;
                email?: string;
                tax_id?: string;
                iban?: string;
                account_number?: string;
            }[];
            invoices: {
                id: string;
                number: string;
                issue_date: string;
                due_date?: string;
                /** @description ISO 4217 */
                currency: string;
                subtotal?: string;
                tax?: string;
                total: string;
                amount_paid?: string;
                /** @enum {string} */
                status: "draft" | "sent" | "partial" | "paid" | "overdue" | "cancelled" | "disputed";
                line_items?: {
                    description: string;
                    quantity?: string;
                    amount?: string;
                }[];
                customer_id: string;
            }[];
            bills: {
                id: string;
                number: string;
                issue_date: string;
                due_date?: string;
                /** @description ISO 4217 */
                currency: string;
                subtotal?: string;
                tax?: string;
                total: string;
                amount_paid?: string;
                /** @enum {string} */
                status: "draft" | "sent" | "partial" | "paid" | "overdue" | "cancelled" | "disputed";
                line_items?: {
                    description: string;
                    quantity?: string;
                    amount?: string;
                }[];
                vendor_id: string;
            }[];
            subscriptions?: {
                id: string;
                vendor_id: string;
                description: string;
                amount: string;
                /** @description ISO 4217 */
                currency: string;
                /** @enum {string} */
                interval: "weekly" | "monthly" | "quarterly" | "yearly";
                next_due_date: string;
            }[];
        };
        AgentActionProposed: {
            /** @description The proposal id (GET /v1/proposals/{id}). */
            id: string;
            agent_id: string;
            /** @description The public proposal type the action type resolved to. */
            proposal_type: string;
            action_type: string;
            /** @enum {string} */
            status: "proposed";
            /** @description The agent's confidence. */
            confidence: number;
            /** @description The share of cited refs a Ledger record or a parsed row backs. */
            evidence_score: number;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
        };
        AgentActions: {
            actions: {
                proposal: components["schemas"]["AgentProposal"];
                payment_intent: {
                    id: string;
                    status: string;
                    policy_decision_id: string | null;
                } | null;
                status: string;
            }[];
            next_cursor: string | null;
        };
        AgentCatalogEntry: {
            /** @description The agent's id in the catalog (bill_payment, collections, …). */
            agent_key: string;
            /** @enum {string} */
            provenance: "first_party";
            /**
             * @description internal: a first-party agent.
             * @enum {string}
             */
            kind: "internal";
            /** @description The public proposal type it produces. */
            role: string;
            display_name: string;
            description: string;
            /** @enum {string} */
            category: "business" | "consumer" | "agnostic";
            capabilities: string[];
            enabled_by_default: boolean;
            /** @description The program version. */
            version: string;
            /** @description SHA-256 (0x hex) of the agent key, program version and configuration; gate check 1.5 pins it. */
            behavior_hash: string;
        };
        AgentCategoryHalt: {
            /** @enum {string} */
            category: "business" | "consumer" | "agnostic";
            halted: components["schemas"]["AgentHalt"][];
        };
        AgentDetail: {
            agent_id: string;
            /** @description A first-party agent's catalog entry; null for a registered agent. */
            definition: {
                /** @description The agent's id in the catalog (bill_payment, collections, …). */
                agent_key: string;
                /** @enum {string} */
                provenance: "first_party";
                /**
                 * @description internal: a first-party agent.
                 * @enum {string}
                 */
                kind: "internal";
                /** @description The public proposal type it produces. */
                role: string;
                display_name: string;
                description: string;
                /** @enum {string} */
                category: "business" | "consumer" | "agnostic";
                capabilities: string[];
                enabled_by_default: boolean;
                /** @description The program version. */
                version: string;
                /** @description SHA-256 (0x hex) of the agent key, program version and configuration; gate check 1.5 pins it. */
                behavior_hash: string;
                /** @description True while the agent is not promoted for your tenant: its money proposals end shadow_completed. */
                shadow_mode: boolean;
            } | null;
            /** @description A registered agent's record; null for first-party agents, which are not registered on chain. */
            registration: components["schemas"]["RegisteredAgent"] | null;
            /**
             * @description The agent's state in your tenant (spec, "Agent state").
             * @enum {string}
             */
            state: "pending_onchain" | "active" | "quarantined" | "revoked";
            contribution_hold: boolean;
        };
        AgentEventQueued: {
            job_id: string;
            /** @enum {string} */
            status: "queued";
        };
        AgentHalt: {
            agent_id: string;
            /**
             * @description The agent's state in your tenant (spec, "Agent state").
             * @enum {string}
             */
            state: "pending_onchain" | "active" | "quarantined" | "revoked";
            contribution_hold: boolean;
            paused_payment_intent_ids: string[];
        };
        AgentList: {
            agents: (components["schemas"]["AgentCatalogEntry"] | components["schemas"]["RegisteredAgent"])[];
        };
        AgentPromotion: {
            /** @description prm_… */
            id: string;
            agent_id: string;
            currency: string;
            per_payment_cap: string;
            per_day_cap: string;
            rails: string[];
            counterparty_ids: string[] | null;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            expires_at: string;
            reason: string;
            /** @description The member who promoted (user id). */
            promoted_by: string;
            /** @description What the agent's shadow scorecard must meet for the promotion to be granted. */
            thresholds: {
                /** @description At least this many shadow runs. */
                min_shadow_runs: number;
                /** @description At least this share of the agent's decided proposals approved (0 to 1). */
                min_approval_rate: number;
                /** @description At most this share of its shadow runs failing the gate (0 to 1). */
                max_gate_failure_rate: number;
            };
            /** @description The agent's shadow record. */
            scorecard: {
                /** @description Proposals that ran the whole pipeline in shadow (shadow_completed). */
                shadow_runs: number;
                /** @description Proposals approved at some point or rejected. */
                decided: number;
                /** @description Of those, the approved ones: a person (or the policy) would have let them through. */
                approved: number;
                /** @description Shadow runs whose gate did not pass. */
                gate_would_fail: number;
                /** @description approved / decided, four decimals; 0 when nothing was decided. */
                approval_rate: number;
                /** @description gate_would_fail / shadow_runs, four decimals; 0 without shadow runs. */
                gate_failure_rate: number;
            };
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
            /** @description Whether the gate lets the agent's payments out under it now (not demoted, not expired). */
            active: boolean;
            demoted_at: string | null;
            demoted_by: string | null;
            demotion_reason: string | null;
        };
        AgentPromotionStanding: {
            agent_id: string;
            promotion: components["schemas"]["AgentPromotion"] | null;
            /** @description The agent's shadow record. */
            scorecard: {
                /** @description Proposals that ran the whole pipeline in shadow (shadow_completed). */
                shadow_runs: number;
                /** @description Proposals approved at some point or rejected. */
                decided: number;
                /** @description Of those, the approved ones: a person (or the policy) would have let them through. */
                approved: number;
                /** @description Shadow runs whose gate did not pass. */
                gate_would_fail: number;
                /** @description approved / decided, four decimals; 0 when nothing was decided. */
                approval_rate: number;
                /** @description gate_would_fail / shadow_runs, four decimals; 0 without shadow runs. */
                gate_failure_rate: number;
            };
        };
        AgentProposal: {
            id: string;
            run_id: string | null;
            agent_id: string;
            proposal_type: string;
            action_type: string;
            key: string;
            status: string;
            /** @description The program's confidence. */
            confidence: number;
            /** @description How well its evidence supports it. */
            evidence_score: number;
            narrative: string;
            evidence: {
                kind: string;
                ref: string;
            }[];
            details: {
                [key: string]: unknown;
            };
            payment_intent_id: string | null;
            policy_decision_id: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
        };
        /** @description The flat variant of the error envelope, for refusals before dispatch (spec, "Errors"). */
        AgentProtocolRefusal: {
            /** @description The catalogue code (auth_token_missing, auth_token_invalid, auth_token_expired, agent_not_registered, agent_inactive, agent_scope_hash_missing, agent_not_registered_onchain, agent_scope_hash_mismatch, auth_tenant_mismatch, scope_expired, rate_limit_exceeded, …). */
            error_code: string;
            message: string;
        };
        AgentRoutingDecision: {
            id: string;
            input: {
                event: string | null;
                intent: string | null;
            };
            context: {
                [key: string]: unknown;
            };
            selected_agent_id: string | null;
            fallback_agent_ids: string[];
            /** @description How clearly the rule picked the agent. */
            confidence: number;
            /** @description How much of the input the selection explains. */
            evidence_score: number;
            /**
             * @description routed: an agent was selected; unscoped: selected, but the caller may not take its payments forward; no_match: none.
             * @enum {string}
             */
            policy_status: "routed" | "unscoped" | "no_match";
            execution_mode: ("execute" | "propose" | "confirm" | "notify_only" | "reject") | null;
            reason: string;
            /** @description event_table:<event>, keywords or none (docs/agents.md, "Routing"). */
            rule: string;
            candidates: {
                agent_id: string;
                score: number;
                matched: string[];
            }[];
            run_id: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
        };
        AgentRoutingResult: {
            routing_decision_id: string;
            selected_agent_id: string | null;
            fallback_agent_ids: string[];
            /** @description How clearly the rule picked the agent. */
            confidence: number;
            /** @description How much of the input the selection explains. */
            evidence_score: number;
            /**
             * @description routed: an agent was selected; unscoped: selected, but the caller may not take its payments forward; no_match: none.
             * @enum {string}
             */
            policy_status: "routed" | "unscoped" | "no_match";
            execution_mode: ("execute" | "propose" | "confirm" | "notify_only" | "reject") | null;
            reason: string;
        };
        AgentRunDetail: {
            id: string;
            routing_decision_id: string;
            agent_id: string | null;
            category: ("business" | "consumer" | "agnostic") | null;
            /** @enum {string} */
            status: "proposal_created" | "no_proposal" | "no_match" | "unscoped";
            action: string | null;
            shadow_mode: boolean;
            /** @description The day the program read the Ledger for. */
            as_of: string;
            /** @enum {string} */
            trigger: "api" | "event";
            job_id: string | null;
            behavior_hash: string | null;
            reason: string;
            proposal_ids: string[];
            payment_intent_ids: string[];
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
            proposals: components["schemas"]["AgentProposal"][];
        };
        AgentRunEvidence: {
            run_id: string;
            /** @description What the program read: record counts and the snapshot digest. */
            ledger_read: {
                [key: string]: unknown;
            };
            evidence: {
                kind: string;
                ref: string;
                cited_by: string[];
            }[];
        };
        AgentRunGateTrace: {
            run_id: string;
            payment_intents: {
                payment_intent_id: string;
                proposal_id: string;
                status: string;
                dry_run: {
                    [key: string]: unknown;
                } | null;
                gate_runs: {
                    id: string;
                    mode: string;
                    audit_event_id: string | null;
                    checks: {
                        index: number | string;
                        name: string;
                        passed: boolean;
                        reason: string;
                    }[];
                }[];
            }[];
        };
        AgentRunList: {
            runs: components["schemas"]["AgentRunSummary"][];
            next_cursor: string | null;
        };
        AgentRunResult: {
            /** @enum {string} */
            status: "proposal_created" | "no_proposal" | "no_match" | "unscoped";
            routing_decision_id: string;
            run_id: string;
            selected_agent_id: string | null;
            action: string | null;
            shadow_mode: boolean;
            proposed: {
                /** @description The PaymentIntent for a payment, else the proposal. */
                id: string;
                status: string;
                policy_decision_id: string | null;
            } | null;
            proposals: {
                id: string;
                proposal_type: string;
                action_type: string;
                key: string;
                /** @description proposed for a finding; a money proposal's PaymentIntent status (pending_approval, shadow_completed, …); refused when the payments module refused it. */
                status: string;
                payment_intent_id: string | null;
                policy_decision_id: string | null;
                /** @description The program's confidence. */
                confidence: number;
                /** @description How well its evidence supports it. */
                evidence_score: number;
                narrative: string;
            }[];
            duplicates: string[];
            reason: string;
        };
        AgentRunSummary: {
            id: string;
            routing_decision_id: string;
            agent_id: string | null;
            category: ("business" | "consumer" | "agnostic") | null;
            /** @enum {string} */
            status: "proposal_created" | "no_proposal" | "no_match" | "unscoped";
            action: string | null;
            shadow_mode: boolean;
            /** @description The day the program read the Ledger for. */
            as_of: string;
            /** @enum {string} */
            trigger: "api" | "event";
            job_id: string | null;
            behavior_hash: string | null;
            reason: string;
            proposal_ids: string[];
            payment_intent_ids: string[];
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
        };
        AgentRunWhy: {
            run_id: string;
            agent_id: string | null;
            behavior_hash: string | null;
            behavior_hash_current: boolean | null;
            structured_reason: {
                [key: string]: unknown;
            };
            /** @description Each step by record ids and kinds; the intent's text and free-text narratives are redacted. */
            reasoning_trace: {
                step: string;
                detail: {
                    [key: string]: unknown;
                };
            }[];
            candidates: {
                agent_id: string;
                score: number;
                matched: string[];
            }[];
        };
        AgentStateView: {
            agent_id: string;
            /**
             * @description The agent's state in your tenant (spec, "Agent state").
             * @enum {string}
             */
            state: "pending_onchain" | "active" | "quarantined" | "revoked";
            contribution_hold: boolean;
        };
        /** @description An amount as a decimal string, never a float: an optional `-`, digits, and `.` with the fraction digits of its currency's scale (its ISO 4217 minor units; USDC and USDT 6, ETH 18; a code Steward does not know 2): `"1410.000000"` USDC, `"0.00"` EUR, `"1500"` JPY. Never rounded: a value with more non-zero fraction digits than its scale keeps them. Negative is money out of the account on transactions and differences; never `-0`. The currency is the `currency` field beside it. */
        Amount: string;
        ApiKey: {
            id: string;
            /** @description Tenant id (UUID). */
            tenant_id: string;
            name: string;
            /** @enum {string} */
            environment: "test" | "live";
            /** @description svc_sk_test_ (sandbox) or svc_sk_live_ (production). */
            prefix: string;
            /** @description The last four characters of the current secret, to tell keys apart. */
            secret_last_four: string;
            scopes: ("ledger:read" | "audit:read" | "governance:read")[];
            /** @enum {string} */
            status: "active" | "expired" | "revoked";
            expires_at: string | null;
            last_used_at: string | null;
            rotated_at: string | null;
            previous_secret_expires_at: string | null;
            revoked_at: string | null;
            created_by: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
        };
        AuditAnchor: {
            anchor_id: string;
            /** @description Tenant id (UUID). */
            tenant_id: string;
            /** @description 32 bytes, 0x-prefixed lowercase hex. */
            merkle_root: string;
            event_count: number;
            seq_from: number;
            seq_to: number;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            period_start: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            period_end: string;
            /** @enum {string} */
            anchoring_mode: "database_hash_chain" | "onchain_merkle_root";
            /** @enum {string} */
            publication_status: "not_applicable" | "pending" | "published";
            onchain_tx_hash: string | null;
            onchain_block_number: number | null;
            chain_id: number | null;
            contract_address: string | null;
            /** @description What this anchor proves, and what it does not. */
            guarantee: string;
        };
        AuditEvent: {
            id: string;
            /** @description Tenant id (UUID). */
            tenant_id: string;
            seq: number | null;
            /** @enum {string} */
            layer: "raw" | "ledger" | "wiki" | "policy" | "agent" | "execution" | "audit";
            actor: {
                type: string;
                id: string;
            };
            action: string;
            entity: {
                type: string;
                id: string;
            };
            /** @description Hashes, ids and small scalars only. */
            inputs: {
                [key: string]: unknown;
            };
            /** @description Hashes, ids and small scalars only. */
            outputs: {
                [key: string]: unknown;
            };
            evidence_ids: string[];
            request_id: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
            prev_hash: string | null;
            hash: string | null;
            sequenced_at: string | null;
        };
        AuditEventWithProof: {
            event: components["schemas"]["AuditEvent"];
            inclusion: {
                /**
                 * @description pending_sequence: not yet linked into the chain (moments); pending_batch: linked, its Merkle batch not closed yet; included: proof below.
                 * @enum {string}
                 */
                status: "pending_sequence" | "pending_batch" | "included";
                leaf: string | null;
                leaf_index: number | null;
                merkle_root: string | null;
                proof: string[];
                anchor: components["schemas"]["AuditAnchor"] | null;
            };
        };
        AuditExport: {
            export_id: string;
            /** @enum {string} */
            status: "queued" | "running" | "completed" | "failed";
            /** @enum {string} */
            format: "jsonl" | "csv";
            filters: {
                [key: string]: unknown;
            };
            events_total: number | null;
            events_written: number;
            bytes: number | null;
            sha256: string | null;
            error: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
            completed_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            expires_at: string;
            status_url: string;
            download_url: string | null;
        };
        Balance: {
            id: string;
            account_id: string;
            /** @enum {string} */
            balance_type: "opening" | "closing" | "available" | "current";
            /**
             * Format: date
             * @description A calendar date, YYYY-MM-DD.
             */
            as_of: string;
            amount: components["schemas"]["Amount"];
            currency: string;
            /** @description This version of the record. */
            version_id: string;
            version: number;
            supersedes: string | null;
            /** @description The Raw artifacts (raw_…) this record came from. */
            source_ids: string[];
            /** @description The parsed rows (rpr_…) this record came from. */
            evidence_ids: string[];
            /** @enum {string} */
            provenance: "extracted" | "inferred" | "ambiguous" | "human_confirmed" | "agent_contributed";
            confidence: number;
            /** @description Source details; `scenario` is `ar` on receivable invoices and obligations and `ap` on payable ones. */
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When the entity was first recorded (system time).
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When this version was recorded (system time).
             */
            updated_at: string;
            superseded_at: string | null;
        };
        BankProviderPayload: {
            /** @enum {string} */
            schema: "steward.bank_provider.v1";
            provider: {
                id: string;
                name?: string;
            };
            account: {
                id: string;
                /** @enum {string} */
                type: "checking" | "savings" | "credit_card" | "loan" | "line_of_credit";
                /** @description ISO 4217 */
                currency: string;
                name?: string;
                iban?: string;
                account_number?: string;
                institution_id?: string;
                institution_name?: string;
                /** @enum {string} */
                status?: "active" | "closed" | "frozen";
            };
            transactions: {
                id: string;
                pending_id?: string;
                /** @enum {string} */
                status: "pending" | "posted";
                amount: string;
                date: string;
                posted_date?: string;
                description: string;
                counterparty?: {
                    name?: string;
                    iban?: string;
                    account_number?: string;
                };
                category?: string;
                original_amount?: string;
                /** @description ISO 4217 */
                original_currency?: string;
                merchant_category_code?: string;
            }[];
            balances: {
                /** @enum {string} */
                type: "available" | "current" | "opening" | "closing";
                as_of: string;
                amount: string;
            }[];
        };
        CardProcessorPayload: {
            /** @enum {string} */
            schema: "steward.card_processor.v1";
            provider: {
                id: string;
                name?: string;
            };
            account: {
                id: string;
                /** @description ISO 4217 */
                currency: string;
                name?: string;
            };
            charges: {
                id: string;
                date: string;
                amount: string;
                /** @enum {string} */
                status: "pending" | "succeeded" | "failed";
                description?: string;
                customer?: {
                    name?: string;
                    email?: string;
                };
                card?: {
                    brand: string;
                    last4: string;
                };
            }[];
            refunds: {
                id: string;
                charge_id: string;
                date: string;
                amount: string;
                /** @enum {string} */
                status: "pending" | "succeeded" | "failed";
                reason?: string;
            }[];
            fees: {
                id: string;
                date: string;
                amount: string;
                description: string;
                charge_id?: string;
            }[];
            payouts: {
                id: string;
                date: string;
                arrival_date?: string;
                amount: string;
                /** @enum {string} */
                status: "pending" | "in_transit" | "paid" | "failed";
                description?: string;
                destination: {
                    name?: string;
                    iban?: string;
                    account_number?: string;
                };
            }[];
            balances: {
                /** @enum {string} */
                type: "available" | "current";
                as_of: string;
                amount: string;
            }[];
        };
        ChainIndexerPayload: {
            /** @enum {string} */
            schema: "steward.chain_indexer.v1";
            indexer: {
                id: string;
                name?: string;
            };
            wallet: {
                address: string;
                chain_id: number;
                label?: string;
            };
            transfers: {
                tx_hash: string;
                log_index: number;
                block_number: number;
                timestamp: string;
                from: string;
                to: string;
                token: {
                    symbol: string;
                    address: string;
                    decimals: number;
                };
                value: string;
            }[];
        };
        ContributionHoldRelease: {
            agent_id: string;
            /**
             * @description The agent's state in your tenant (spec, "Agent state").
             * @enum {string}
             */
            state: "pending_onchain" | "active" | "quarantined" | "revoked";
            contribution_hold: boolean;
            /** @description False when there was no hold to release. */
            released: boolean;
            /** @description The Raw artifacts the hold kept from the Ledger, now handed to normalization (at most 1,000 per release; a release with more leaves the rest for the next). */
            released_raw_ids: string[];
        };
        Counterparty: {
            id: string;
            name: string;
            /** @enum {string} */
            type: "merchant" | "vendor" | "customer" | "employer" | "employee" | "bank" | "wallet" | "exchange" | "tax_authority" | "agent" | "other";
            /** @enum {string} */
            verified_status: "unverified" | "self_attested" | "document_verified" | "sanctions_cleared";
            /**
             * @description medium until screened or reviewed.
             * @enum {string}
             */
            risk_level: "low" | "medium" | "high" | "sanctioned";
            /**
             * @description Advisory only; execution enforcement uses verified_status, screening and policy.
             * @enum {string}
             */
            trust_state: "unreviewed" | "trusted" | "paused" | "acknowledged";
            aliases: string[];
            /** @description iban:…, wallet:…, account:… identifiers seen for this counterparty. */
            linked_accounts: string[];
            /** @description This version of the record. */
            version_id: string;
            version: number;
            supersedes: string | null;
            /** @description The Raw artifacts (raw_…) this record came from. */
            source_ids: string[];
            /** @description The parsed rows (rpr_…) this record came from. */
            evidence_ids: string[];
            /** @enum {string} */
            provenance: "extracted" | "inferred" | "ambiguous" | "human_confirmed" | "agent_contributed";
            confidence: number;
            /** @description Source details; `scenario` is `ar` on receivable invoices and obligations and `ap` on payable ones. */
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When the entity was first recorded (system time).
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When this version was recorded (system time).
             */
            updated_at: string;
            superseded_at: string | null;
        };
        ErpProviderPayload: {
            /** @enum {string} */
            schema: "steward.erp_provider.v1";
            provider: {
                id: string;
                name?: string;
            };
            customers: {
                id: string;
                name: string;
                email?: string;
                tax_id?: string;
                iban?: string;
                account_number?: string;
            }[];
            vendors: {
                id: string;
                name: string;
                email?: string;
                tax_id?: string;
                iban?: string;
                account_number?: string;
            }[];
            invoices: {
                id: string;
                number: string;
                issue_date: string;
                due_date?: string;
                /** @description ISO 4217 */
                currency: string;
                subtotal?: string;
                tax?: string;
                total: string;
                amount_paid?: string;
                /** @enum {string} */
                status: "draft" | "sent" | "partial" | "paid" | "overdue" | "cancelled" | "disputed";
                line_items?: {
                    description: string;
                    quantity?: string;
                    amount?: string;
                }[];
                customer_id: string;
            }[];
            bills: {
                id: string;
                number: string;
                issue_date: string;
                due_date?: string;
                /** @description ISO 4217 */
                currency: string;
                subtotal?: string;
                tax?: string;
                total: string;
                amount_paid?: string;
                /** @enum {string} */
                status: "draft" | "sent" | "partial" | "paid" | "overdue" | "cancelled" | "disputed";
                line_items?: {
                    description: string;
                    quantity?: string;
                    amount?: string;
                }[];
                vendor_id: string;
            }[];
            subscriptions?: {
                id: string;
                vendor_id: string;
                description: string;
                amount: string;
                /** @description ISO 4217 */
                currency: string;
                /** @enum {string} */
                interval: "weekly" | "monthly" | "quarterly" | "yearly";
                next_due_date: string;
            }[];
        };
        /** @description The error envelope of every non-2xx response. */
        Error: {
            error: {
                code: components["schemas"]["ErrorCode"];
                /** @description For a person; it may change between releases. */
                message: string;
                /** @description Machine-readable specifics of the code, e.g. `issues` of a validation failure. */
                details?: {
                    [key: string]: unknown;
                };
                /** @description Also in the X-Request-Id response header; quote it when reporting a problem. */
                request_id: string;
                /**
                 * Format: uri
                 * @description The code in the error reference.
                 */
                docs_url: string;
            };
        };
        /**
         * @description Stable snake_case code from the error reference (GET /v1/errors, /docs/errors); match on it, not on the message.
         * @enum {string}
         */
        ErrorCode: "request_body_invalid" | "request_params_invalid" | "validation_failed" | "missing_required_field" | "invalid_cursor" | "request_body_too_large" | "request_media_type_unsupported" | "route_not_found" | "method_not_allowed" | "request_malformed" | "request_timeout" | "request_headers_too_large" | "rate_limit_exceeded" | "idempotency_key_reused" | "internal_error" | "service_unavailable" | "auth_token_missing" | "auth_token_invalid" | "auth_token_expired" | "auth_invalid_key" | "auth_invalid_credentials" | "auth_email_unverified" | "auth_siwx_invalid" | "auth_scope_insufficient" | "auth_tenant_mismatch" | "auth_service_token_disabled" | "signup_email_taken" | "signup_token_invalid" | "wallet_already_linked" | "wallet_not_found" | "wallet_signs_active_policy" | "tenant_not_found" | "tenant_suspended" | "tenant_access_denied" | "tenant_identity_already_linked" | "member_not_found" | "member_change_forbidden" | "api_key_not_found" | "api_key_revoked" | "api_key_expired" | "api_key_auth_disabled" | "source_not_found" | "source_credential_invalid" | "source_already_connected" | "source_revoked" | "raw_artifact_not_found" | "raw_artifact_tombstoned" | "raw_artifact_too_large" | "raw_source_unsupported" | "raw_source_reserved" | "raw_webhook_signature_invalid" | "raw_fetch_refused" | "raw_fetch_failed" | "raw_signature_invalid" | "ledger_transaction_not_found" | "ledger_account_not_found" | "ledger_counterparty_not_found" | "ledger_invoice_not_found" | "ledger_parsed_row_not_found" | "ledger_parsed_row_unsupported" | "ledger_job_not_found" | "ledger_counterparty_trust_transition_invalid" | "audit_event_not_found" | "audit_anchor_not_found" | "audit_entity_not_found" | "audit_export_not_found" | "audit_export_not_ready" | "proof_not_found" | "policy_not_found" | "policy_not_active" | "policy_denied" | "policy_quorum_not_met" | "policy_version_mismatch" | "policy_signature_invalid" | "agent_not_found" | "agent_not_registered" | "agent_not_registered_onchain" | "agent_scope_hash_missing" | "agent_inactive" | "agent_scope_hash_mismatch" | "scope_expired" | "agent_proposal_duplicate" | "agent_already_registered" | "agent_promotion_refused" | "agent_promotion_not_found" | "agent_run_not_found" | "agent_lifecycle_transition_invalid" | "governance_report_not_found" | "tool_not_found" | "resource_not_found" | "prompt_not_found" | "wiki_entity_not_found" | "agent_routing_decision_not_found" | "memory_page_not_found" | "payment_intent_not_found" | "payment_intent_invalid_state" | "payment_intent_gate_failed" | "payment_intent_approval_invalid" | "obligation_not_found" | "obligation_direction_invalid" | "action_already_executed" | "invoice_already_paid" | "invoice_not_payable" | "rail_webhook_signature_invalid" | "rail_transfer_unknown" | "onchain_account_not_found" | "onchain_account_already_registered" | "onchain_rail_not_configured" | "execution_proposal_not_found" | "actor_unresolved" | "proposal_decision_unavailable" | "gate_no_policy_decision" | "gate_policy_version_stale" | "gate_counterparty_unverified" | "gate_counterparty_sanctioned" | "gate_balance_insufficient" | "gate_approval_incomplete" | "gate_session_key_invalid" | "gate_audit_chain_stale" | "webhook_endpoint_not_found" | "webhook_url_refused" | "webhook_endpoint_disabled" | "webhook_endpoint_limit_reached" | "idempotency_request_in_progress";
        EvidenceResolveResult: {
            results: {
                kind: string;
                ref: string;
                resolvable: boolean;
                /** @description True when the kind resolves and the ref is well-formed but names nothing in your tenant. */
                not_found: boolean;
                summary: string | null;
                deep_link: string | null;
                reason: ("unsupported_kind" | "malformed_ref") | null;
            }[];
        };
        GovernanceAgent: {
            id: string;
            /** @enum {string} */
            kind: "external";
            /** @description reader, contributor or proposer: fixes the agent's plain scopes and so its scope hash. */
            role: string;
            display_name: string;
            /**
             * @description The agent's state in your tenant (spec, "Agent state").
             * @enum {string}
             */
            state: "pending_onchain" | "active" | "quarantined" | "revoked";
            /** @description keccak256 (0x hex) of the role's plain scopes, sorted and joined by |; the AgentRegistry contract must hold it. */
            scope_hash: string;
            /** @description The agent's wallet (lower-case hex). */
            onchain_address: string | null;
            /** @description The registering transaction: as given, then as confirmed on chain. */
            registered_tx: string | null;
            /** @description null until the agent is activated. */
            registered_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description True while the agent's Raw contributions wait for a release (set by a halt). */
            contribution_hold: boolean;
            tenant_id: string;
            /**
             * @description The agent's state in your tenant (spec, "Agent state").
             * @enum {string}
             */
            status: "pending_onchain" | "active" | "quarantined" | "revoked";
            /** @description Always null: only the scope hash is stored. */
            scopes: null;
        };
        GovernanceAgentDetail: {
            id: string;
            /** @enum {string} */
            kind: "external";
            /** @description reader, contributor or proposer: fixes the agent's plain scopes and so its scope hash. */
            role: string;
            display_name: string;
            /**
             * @description The agent's state in your tenant (spec, "Agent state").
             * @enum {string}
             */
            state: "pending_onchain" | "active" | "quarantined" | "revoked";
            /** @description keccak256 (0x hex) of the role's plain scopes, sorted and joined by |; the AgentRegistry contract must hold it. */
            scope_hash: string;
            /** @description The agent's wallet (lower-case hex). */
            onchain_address: string | null;
            /** @description The registering transaction: as given, then as confirmed on chain. */
            registered_tx: string | null;
            /** @description null until the agent is activated. */
            registered_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description True while the agent's Raw contributions wait for a release (set by a halt). */
            contribution_hold: boolean;
            tenant_id: string;
            /**
             * @description The agent's state in your tenant (spec, "Agent state").
             * @enum {string}
             */
            status: "pending_onchain" | "active" | "quarantined" | "revoked";
            scopes: null;
            /** @description Every audit event about the agent, oldest first. */
            lifecycle_events: {
                audit_event_id: string;
                /** @description type:id of the audit actor. */
                actor: string;
                action: string;
                policy_decision_id: string | null;
                policy_check_id: string | null;
                outcome: string | null;
                /**
                 * Format: date-time
                 * @description ISO 8601 timestamp, UTC.
                 */
                created_at: string;
                inputs: {
                    [key: string]: unknown;
                };
                outputs: {
                    [key: string]: unknown;
                };
            }[];
        };
        GovernanceAgentList: {
            agents: components["schemas"]["GovernanceAgent"][];
            next_cursor: string | null;
        };
        GovernanceReport: {
            tenant_id: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            period_start: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            period_end: string;
            agent_id: string | null;
            summary: {
                totals: {
                    proposed: number;
                    approved: number;
                    blocked: number;
                    escalated: number;
                    decision_data_unavailable: number;
                };
                coverage: {
                    events: number;
                    with_policy_decision_id: number;
                    joined_policy_decision: number;
                    with_native_outcome: number;
                };
            };
            events: {
                audit_event_id: string;
                /**
                 * Format: date-time
                 * @description ISO 8601 timestamp, UTC.
                 */
                created_at: string;
                actor: string;
                agent_id: string;
                action: string;
                policy_decision_id: string | null;
                policy_check_id: string | null;
                raw_policy_outcome: string | null;
                outcome: ("approved" | "blocked" | "escalated") | null;
                /** @enum {string} */
                decision_data_status: "available" | "unavailable";
                unavailable_reason: ("policy_decision_id_missing" | "policy_decision_not_found" | "native_outcome_missing" | "native_outcome_mismatch") | null;
            }[];
        };
        GovernanceReportSnapshot: {
            /** @description grpt_… */
            report_id: string;
            tenant_id: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            period_start: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            period_end: string;
            agent_id: string | null;
            created_by: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
            report: components["schemas"]["GovernanceReport"];
        };
        GovernanceSnapshotCreated: {
            report_id: string;
            snapshot: components["schemas"]["GovernanceReportSnapshot"];
        };
        IngestResult: {
            raw_id: string;
            sha256: string;
            source_type: string;
            bytes: number;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            ingested_at: string;
            /** @description true: the tenant already had these bytes; raw_id is the original artifact. */
            deduplicated: boolean;
        };
        Invoice: {
            id: string;
            /**
             * @description receivable: issued by you (AR); payable: a bill you owe.
             * @enum {string}
             */
            direction: "payable" | "receivable";
            invoice_number: string;
            issue_date: string | null;
            due_date: string | null;
            currency: string;
            total: components["schemas"]["Amount"];
            subtotal: components["schemas"]["Amount"] | null;
            tax: components["schemas"]["Amount"] | null;
            amount_paid: components["schemas"]["Amount"];
            amount_due: components["schemas"]["Amount"];
            /** @enum {string} */
            status: "draft" | "sent" | "partial" | "paid" | "overdue" | "cancelled" | "disputed";
            counterparty_id: string | null;
            /** @description This version of the record. */
            version_id: string;
            version: number;
            supersedes: string | null;
            /** @description The Raw artifacts (raw_…) this record came from. */
            source_ids: string[];
            /** @description The parsed rows (rpr_…) this record came from. */
            evidence_ids: string[];
            /** @enum {string} */
            provenance: "extracted" | "inferred" | "ambiguous" | "human_confirmed" | "agent_contributed";
            confidence: number;
            /** @description Source details; `scenario` is `ar` on receivable invoices and obligations and `ap` on payable ones. */
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When the entity was first recorded (system time).
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When this version was recorded (system time).
             */
            updated_at: string;
            superseded_at: string | null;
        };
        IssuedApiKey: {
            api_key: components["schemas"]["ApiKey"];
            /** @description The plaintext key. Shown only in this response (and its replays under the same Idempotency-Key); store it now. */
            secret: string;
        };
        LedgerJob: {
            job_id: string;
            /** @enum {string} */
            kind: "normalize" | "reconcile";
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed";
            input: {
                [key: string]: unknown;
            };
            result: {
                [key: string]: unknown;
            } | null;
            error: string | null;
            created_by: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
        };
        Member: {
            id: string;
            /** @description Tenant id (UUID). */
            tenant_id: string;
            user_id: string;
            email: string;
            /** @enum {string} */
            role: "owner" | "admin" | "approver" | "viewer";
            /** @enum {string} */
            status: "invited" | "active" | "deactivated";
            approval_domains: string[];
            approval_limit: {
                /** @description ISO 4217 code, or USDC. */
                currency: string;
                /** @description Decimal string, at most 6 fractional digits; returned at its currency's scale, as an Amount ("2500.50" USD). */
                value: string;
            } | null;
            invited_by: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            updated_at: string;
            deactivated_at: string | null;
        };
        /** @description A memory page with its content. */
        MemoryPage: {
            /** @description mpg_… */
            id: string;
            /** @description Stable for the subject: <kind>/<subject>, kind one of account, counterparty, obligation, invoice, agent, policy, monthly-summary, cash-flow (counterparty/cpy_…, monthly-summary/2026-03, cash-flow/EUR, policy/active). */
            slug: string;
            /**
             * @description account, counterparty, obligation, invoice, agent, policy, monthly_summary or cash_flow.
             * @enum {string}
             */
            page_type: "account" | "counterparty" | "obligation" | "invoice" | "agent" | "policy" | "monthly_summary" | "cash_flow";
            /** @description Plain text (not Markdown). */
            title: string;
            /** @description What the page is about: a Ledger record id, an agent id, the policy's version ids, a month (YYYY-MM) or a currency. */
            subject_ids: string[];
            /** @description SHA-256 (hex) of content. */
            content_sha256: string;
            /** @description 1 for the first content; increases by one exactly when the content changes (a regeneration over unchanged data makes no new version). */
            version: number;
            source_version: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            generated_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
            /** @description Markdown, generated deterministically from the Ledger, the policy and the agents. Every value from data is escaped (literal text in any CommonMark renderer); links are relative API paths: /v1/ledger/{kind}/{id} for Ledger records, /v1/raw/{raw_id} and /v1/raw/{raw_id}/parsed for the Raw sources and parsed rows they cite, /v1/memory/pages/{slug} for other pages. */
            content: string;
        };
        MemoryPageList: {
            pages: components["schemas"]["MemoryPageSummary"][];
            next_cursor: string | null;
        };
        /** @description source_version: when the newest source record the current content was rendered from was recorded (read the Ledger as_of it to see the same data); null for a page no recorded source dates (a first-party agent). generated_at: when the current content was generated. */
        MemoryPageSummary: {
            /** @description mpg_… */
            id: string;
            /** @description Stable for the subject: <kind>/<subject>, kind one of account, counterparty, obligation, invoice, agent, policy, monthly-summary, cash-flow (counterparty/cpy_…, monthly-summary/2026-03, cash-flow/EUR, policy/active). */
            slug: string;
            /**
             * @description account, counterparty, obligation, invoice, agent, policy, monthly_summary or cash_flow.
             * @enum {string}
             */
            page_type: "account" | "counterparty" | "obligation" | "invoice" | "agent" | "policy" | "monthly_summary" | "cash_flow";
            /** @description Plain text (not Markdown). */
            title: string;
            /** @description What the page is about: a Ledger record id, an agent id, the policy's version ids, a month (YYYY-MM) or a currency. */
            subject_ids: string[];
            /** @description SHA-256 (hex) of content. */
            content_sha256: string;
            /** @description 1 for the first content; increases by one exactly when the content changes (a regeneration over unchanged data makes no new version). */
            version: number;
            source_version: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            generated_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
        };
        MemoryRegeneration: {
            page_types: ("account" | "counterparty" | "obligation" | "invoice" | "agent" | "policy" | "monthly_summary" | "cash_flow")[];
            /** @description Pages the sources make of these types. */
            pages: number;
            created: number;
            /** @description Pages whose content changed (each got the next version). */
            changed: number;
            /** @description Pages whose content is the same (no new version). */
            unchanged: number;
            /** @description Pages whose subject is gone from the sources. */
            deleted: number;
            /** @description Slugs of the created and changed pages, in slug order, at most 1,000. */
            changed_slugs: string[];
            /** @description SHA-256 over every page's slug and content hash: the same sources give the same value. */
            pages_sha256: string;
        };
        Obligation: {
            id: string;
            /** @enum {string} */
            type: "bill" | "invoice" | "subscription" | "loan" | "rent" | "payroll" | "tax" | "card_statement" | "other";
            direction: ("payable" | "receivable") | null;
            reference: string;
            description: string | null;
            amount: components["schemas"]["Amount"];
            currency: string;
            due_date: string | null;
            recurrence: ("weekly" | "monthly" | "quarterly" | "yearly") | null;
            /** @enum {string} */
            status: "open" | "settled" | "cancelled";
            counterparty_id: string | null;
            invoice_id: string | null;
            /** @description This version of the record. */
            version_id: string;
            version: number;
            supersedes: string | null;
            /** @description The Raw artifacts (raw_…) this record came from. */
            source_ids: string[];
            /** @description The parsed rows (rpr_…) this record came from. */
            evidence_ids: string[];
            /** @enum {string} */
            provenance: "extracted" | "inferred" | "ambiguous" | "human_confirmed" | "agent_contributed";
            confidence: number;
            /** @description Source details; `scenario` is `ar` on receivable invoices and obligations and `ap` on payable ones. */
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When the entity was first recorded (system time).
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When this version was recorded (system time).
             */
            updated_at: string;
            superseded_at: string | null;
        };
        OnchainAccount: {
            /** @description The Ledger account. */
            account_id: string;
            /** @description The SmartAccount that pays. Lower case. */
            smart_account: string;
            /** @description The USDC contract (6 decimals). Lower case. */
            token: string;
            /** @description The chain the rail pays on (EIP-155). */
            chain_id: number;
            /** @description The session key Steward signs with for this account, derived from its seed (no private key is stored). The account's owner adds it on chain with addSessionKey(key, token, cap, expiry): until then gate check 12 refuses the account's payments. Lower case. */
            session_key_address: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
        };
        ParsedRow: {
            id: string;
            raw_artifact_id: string;
            parser: string;
            parser_version: string;
            row_index: number;
            /** @description An ExtractedRecord (account, transaction, balance, invoice, obligation or wallet_transfer). */
            extracted: {
                [key: string]: unknown;
            };
            confidence: number;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            extracted_at: string;
        };
        PaymentIntent: {
            /** @description pi_… */
            id: string;
            /** @description Tenant id (UUID). */
            owner_id: string;
            created_by_agent_id: string | null;
            /**
             * @description What kind of money movement (spec, "PaymentIntent").
             * @enum {string}
             */
            action_type: "ach_outbound" | "ach_inbound" | "wire" | "onchain_transfer" | "erp_writeback" | "card_payment" | "x402_settle" | "escrow_release";
            source_account_id: string;
            destination_counterparty_id: string;
            /** @description At the currency's scale. */
            amount: string;
            currency: string;
            invoice_id: string | null;
            obligation_id: string | null;
            evidence_ids: string[];
            /** @enum {string} */
            status: "proposed" | "pending_approval" | "awaiting_second_approval" | "approved" | "rejected" | "paused" | "cancelled" | "dispatching" | "executed" | "failed" | "reconciling" | "shadow_completed";
            /** @description Read-only SDK alias: auto (proposed, approved), needs_approval (pending_approval, awaiting_second_approval); other statuses as they are. */
            sdk_status: string;
            policy_decision_id: string;
            policy_decision: components["schemas"]["PaymentPolicyDecision"];
            /** @description Distinct members who must approve (0 when decided without a person). */
            approvals_required: number;
            held_by: ("policy" | "floor") | null;
            approval_ids: string[];
            /** @description Approvals and the rejection people recorded, oldest first. */
            approvals: {
                /** @description apv_… */
                id: string;
                /** @enum {string} */
                decision: "approve" | "reject";
                member_id: string;
                reason: string | null;
                /**
                 * Format: date-time
                 * @description ISO 8601 timestamp, UTC.
                 */
                created_at: string;
            }[];
            rejection_reason: string | null;
            execution_receipt_ids: string[];
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            updated_at: string;
            agent?: {
                id: string;
                /** @enum {string} */
                kind: "internal" | "external";
                display_name: string;
            } | null;
        };
        PaymentIntentDispatch: {
            payment_intent_id: string;
            outbox_id: string | null;
            execution_id: string | null;
            /** @enum {string} */
            rail: "bank_ach" | "onchain_base" | "erp_writeback" | "x402_base" | "escrow_base";
            /** @enum {string} */
            status: "dispatching" | "shadow_completed";
            /** @description The recorded gate run (gtr_…): all 23 check results. */
            gate_run_id: string;
            /** @description Present for a shadow run only: an un-promoted agent's money proposal ran the whole pipeline and ended shadow_completed, with no rail call (governing rule 7). */
            shadow?: {
                /** @description Whether every check passed: whether the payment would have gone out. */
                gate_passed: boolean;
                /** @description The checks that failed, as `index:name`. */
                failed_checks: string[];
            };
        };
        PaymentIntentList: {
            payment_intents: components["schemas"]["PaymentIntent"][];
            next_cursor: string | null;
        };
        PaymentIntentReplayInvestigation: {
            payment_intent: components["schemas"]["PaymentIntent"];
            /** @description Rail executions, oldest first (one per dispatch). */
            executions: {
                id: string;
                rail: string;
                /**
                 * @description The execution row (docs/execution.md has the moves).
                 * @enum {string}
                 */
                status: "dispatched" | "in_flight" | "completed" | "failed";
                /** @description The settlement receipt, typed by its `type` (ach, wire, erp, onchain); null until the rail settles. */
                rail_receipt: {
                    [key: string]: unknown;
                } | null;
            }[];
            policy_decision_id: string;
            evidence_ids: string[];
        };
        PaymentPolicyDecision: {
            /** @description pdc_… */
            id: string;
            /** @enum {string} */
            outcome: "allow" | "confirm" | "reject";
            matched_rule_id: string | null;
            /** @description One approver label per distinct approval the decision needs. */
            required_approvers: string[];
            covered_by_autonomous_cap: boolean;
            trace: {
                rule_id: string;
                matched: boolean;
                checks: {
                    key: string;
                    passed: boolean;
                    detail: string;
                }[];
            }[];
            policy_id: string;
            policy_version: number;
            /** @description sha256: of the evaluated action's canonical JSON (gate-populated keys included). */
            action_hash: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
        };
        PayrollProviderPayload: {
            /** @enum {string} */
            schema: "steward.payroll_provider.v1";
            provider: {
                id: string;
                name?: string;
            };
            pay_runs: {
                id: string;
                /** @enum {string} */
                status: "scheduled" | "approved" | "paid" | "cancelled";
                period_start: string;
                period_end: string;
                pay_date: string;
                funding_date?: string;
                /** @description ISO 4217 */
                currency: string;
                net_pay: string;
                gross_pay?: string;
                employee_count?: number;
                taxes: {
                    id: string;
                    tax_type: string;
                    authority: string;
                    /** @enum {string} */
                    paid_by: "employee_withholding" | "employer";
                    amount: string;
                    due_date: string;
                }[];
            }[];
        };
        Policy: {
            /** @description Policy version id (pol_…). */
            id: string;
            /** @description The tenant's sequential policy version (the default policy is 1). */
            version: number;
            /**
             * @description pending_signatures → active at quorum; superseded once a later version is activated (an additive value: the spec names the first two).
             * @enum {string}
             */
            state: "pending_signatures" | "active" | "superseded";
            /** @description The policy content as composed (schema: GET /v1/schemas/policy-content.json). */
            content: {
                [key: string]: unknown;
            };
            /** @description keccak256 of the RFC 8785 canonical JSON of the content, 0x-prefixed. */
            content_hash: string;
            /** @description Addresses whose verified signatures are recorded, in signing order. */
            signers: string[];
            quorum_required: number;
            activated_at: string | null;
            deactivated_at: string | null;
            /** @description The user that composed it, or `system` for the default policy. */
            created_by: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
        };
        PolicyDecision: {
            /** @enum {string} */
            outcome: "allow" | "confirm" | "reject";
            matched_rule_id: string | null;
            /** @description Empty unless the outcome is confirm: the approver label once per distinct approval needed (the matched rule's require, default signer, repeated approvals times: ["finance", "finance"] needs two different members); [signer] for the agent_action fallback. */
            required_approvers: string[];
            /** @description Additive: whether the matched rule's signed autonomous cap covers this action; the gate's hard human-approval floor holds allowed money actions that it does not cover. */
            covered_by_autonomous_cap: boolean;
            trace: {
                /** @description A rule id, or a pseudo-rule: [agent_actions], [autonomous_cap], [fallback], [default_deny]. */
                rule_id: string;
                matched: boolean;
                checks: {
                    key: string;
                    passed: boolean;
                    detail: string;
                }[];
            }[];
        };
        PolicyLintFinding: {
            code: string;
            /** @enum {string} */
            severity: "error" | "warning" | "info";
            rule_id: string | null;
            message: string;
        };
        Principal: {
            id: string;
            /** @enum {string} */
            type: "user" | "service" | "api_key" | "agent";
            /** @description Tenant id (UUID). */
            tenantId: string;
            scopes: ("ledger:read" | "ledger:write" | "wiki:read" | "raw:read" | "raw:write" | "policy:read" | "policy:write" | "policy:sign" | "audit:read" | "audit:write" | "execution:read" | "execution:admin" | "execution:propose" | "payment_intent:approve" | "payment_intent:propose" | "payment_intent:execute" | "surfaces:admin" | "governance:read")[];
        };
        /** @description The proof of one action: every field is derived from, or bound by a digest in, the audit events it carries (docs/proofs.md). */
        Proof: {
            /** @description The PaymentIntent id. */
            action_id: string;
            tenant_id: string;
            agent_id: string | null;
            behavior_hash: string | null;
            /**
             * @description executed, failed or shadow_completed once the rail (or the shadow run) answered; rejected when policy or a person rejected or cancelled it; otherwise the policy decision: allowed or confirmed.
             * @enum {string}
             */
            outcome: "allowed" | "confirmed" | "rejected" | "executed" | "failed" | "shadow_completed";
            /** @description The intent's status as its latest audit event states it. */
            status: string;
            /** @description True while the action has no final outcome or any of its events is not under a Merkle root yet. */
            partial: boolean;
            payment: {
                action_type: string | null;
                amount: string | null;
                currency: string | null;
                source_account_id: string | null;
                destination_counterparty_id: string | null;
            };
            policy_version: number | null;
            policy_hash: string | null;
            matched_rule_id: string | null;
            /** @description What members decided, in order. */
            approvals: {
                approval_id: string;
                /** @enum {string} */
                decision: "approve" | "reject";
                member_id: string;
                user_id: string;
                /** @description ISO 8601 UTC with milliseconds. */
                at: string;
                audit_event_id: string;
            }[];
            /** @description Every check of the latest gate run at execute, in index order; empty when the gate never ran. */
            gate_checks: {
                /** @description The check's index (1, 1.5, 2 … 13 and the hardening checks). */
                index: number;
                name: string;
                passed: boolean;
                /** @description Why it failed, or what it saw when it passed. */
                reason: string;
                code: string | null;
            }[];
            /** @description The Raw records the proposal cited. */
            evidence: {
                /** @description The Raw artifact. */
                raw_id: string;
                parsed_row_id: string;
                parser: string;
                confidence: number;
            }[];
            ledger_snapshot_hash: string | null;
            rail_receipt: (({
                /** @enum {string} */
                type: "ach";
                /** @description The ACH provider (sandbox_ach in the sandbox). */
                provider: string;
                transfer_id: string;
                amount: string;
                currency: string;
                settled_at: string | null;
            } & {
                [key: string]: unknown;
            }) | ({
                /** @enum {string} */
                type: "onchain";
                chain_id: number;
                tx_hash: string;
                block_number: number;
                block_hash: string;
                /** @description The ERC-20 Transfer log's index in the block. */
                log_index: number;
                /** @description The session key that signed. */
                from: string;
                smart_account: string;
                token: string;
                to: string;
                amount_base_units: string;
            } & {
                [key: string]: unknown;
            }) | ({
                /** @enum {string} */
                type: "wire" | "erp";
            } & {
                [key: string]: unknown;
            })) | null;
            rail_return: ({
                /** @enum {string} */
                type: "ach";
                provider: string;
                transfer_id: string;
                /** @enum {string} */
                status: "returned";
                return_code: string | null;
                returned_at: string;
                amount: string;
                currency: string;
            } & {
                [key: string]: unknown;
            }) | null;
            /** @description The action's audit event ids, in chain order. */
            audit_events: string[];
            /** @description The Merkle root over the last of audit_events; empty until its batch closes. */
            merkle_root: string | "";
            merkle_proof: string[];
            chain_anchor: {
                /** @description 32 bytes, 0x-prefixed lowercase hex. */
                tx_hash: string;
                block: number;
                chain_id: number;
                publication_event_id: string;
            } | null;
            /** @description A deterministic plain-English paragraph, written from the fields above. */
            human_explanation: string;
            /** @description Every event of audit_events with its inclusion, then the anchor publication's when chain_anchor is set: what an offline verifier recomputes. */
            events: components["schemas"]["ProofEventRecord"][];
        };
        /** @description An audit event with every field its hash covers (docs/audit.md, "The event and its hash"). */
        ProofAuditEvent: {
            id: string;
            tenant_id: string;
            seq: number | null;
            layer: string;
            actor: {
                type: string;
                id: string;
            };
            action: string;
            entity: {
                type: string;
                id: string;
            };
            /** @description As recorded: hashes, ids and small scalars. */
            inputs: {
                [key: string]: unknown;
            };
            /** @description As recorded: hashes, ids and small scalars. */
            outputs: {
                [key: string]: unknown;
            };
            evidence_ids: string[];
            request_id: string | null;
            /** @description ISO 8601 UTC with milliseconds. */
            created_at: string;
            prev_hash: string | null;
            hash: string | null;
        };
        ProofEventRecord: {
            event: components["schemas"]["ProofAuditEvent"];
            inclusion: {
                /**
                 * @description pending_sequence: not linked yet; pending_batch: linked, its batch open; included: under merkle_root by proof.
                 * @enum {string}
                 */
                status: "pending_sequence" | "pending_batch" | "included";
                leaf: string | null;
                merkle_root: string | null;
                proof: string[];
            };
        };
        Proposal: {
            /** @description prp_… */
            id: string;
            /**
             * @description A public proposal type (spec, "Proposal").
             * @enum {string}
             */
            type: "vendor_risk" | "payment" | "collections" | "treasury" | "cash_forecast" | "dispute" | "compliance" | "revenue_intel" | "reconciliation" | "subscription" | "fraud_anomaly" | "personal_budget" | "financial_health" | "purchase_advisor" | "tax_prep" | "travel_finance" | "bill_management" | "debt_optimization" | "savings";
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
            /**
             * @description The proposal's status (spec, "Proposal").
             * @enum {string}
             */
            status: "proposed" | "pending" | "pending_approval" | "awaiting_second_approval" | "approved" | "acknowledged" | "reconciling" | "paused" | "dispatching" | "rejected" | "executed" | "failed" | "cancelled" | "undone" | "unknown";
            risk_band: ("low" | "standard" | "elevated" | "high") | null;
            confidence: number | null;
            /**
             * @description Agents propose; a person decides.
             * @enum {string}
             */
            mode: "propose";
            narrative: string;
            evidence: {
                kind: string;
                ref: string;
                /** @description Whether POST /v1/evidence/resolve resolves this kind. */
                resolvable: boolean;
            }[];
            agent: {
                id: string;
                /** @enum {string} */
                kind: "internal" | "external";
                display_name: string;
            };
            payment_intent_id: string | null;
            action_type: string | null;
            /** @description The action type the agent stored (pay_invoice, remind, flag_transaction, …). */
            stored_action_type: string;
            /** @description The stored action's fields. */
            details: {
                [key: string]: unknown;
            };
            policy: {
                decision: ("allow" | "confirm" | "reject") | null;
                policy_id: string | null;
                policy_version: number | null;
                matched_rule_id: string | null;
                explanation: string;
                required_approvers: string[];
                trace: {
                    rule_id: string;
                    matched: boolean;
                    checks: {
                        key: string;
                        passed: boolean;
                        detail: string;
                    }[];
                }[];
            };
            presentation: {
                headline: string;
                recommendation: string;
                key_facts: {
                    label: string;
                    value: string;
                }[];
                /** @enum {string} */
                confidence_band: "high" | "medium" | "low" | "unknown";
                /** @description The policy decision in one sentence. */
                policy: string;
                consequences: {
                    approve: string | null;
                    reject: string | null;
                    acknowledge: string | null;
                };
                actions: {
                    /** @enum {string} */
                    id: "approve" | "reject" | "acknowledge" | "undo";
                    label: string;
                    meaning: string;
                }[];
                technical_detail: {
                    "1_ingest": {
                        [key: string]: unknown;
                    };
                    "2_extract": {
                        [key: string]: unknown;
                    };
                    "3_classify": {
                        [key: string]: unknown;
                    };
                    "4_score": {
                        [key: string]: unknown;
                    };
                    "5_policy": {
                        [key: string]: unknown;
                    };
                    "6_propose": {
                        [key: string]: unknown;
                    };
                };
            };
            available_decisions: {
                /** @enum {string} */
                id: "approve" | "reject" | "acknowledge" | "undo";
                label: string;
                meaning: string;
            }[];
        };
        ProposalDecisionResult: {
            decision: {
                /** @description pdn_… */
                id: string;
                proposal_id: string;
                /** @enum {string} */
                decision: "approve" | "reject" | "acknowledge" | "undo";
                /**
                 * @description The proposal's status (spec, "Proposal").
                 * @enum {string}
                 */
                status_before: "proposed" | "pending" | "pending_approval" | "awaiting_second_approval" | "approved" | "acknowledged" | "reconciling" | "paused" | "dispatching" | "rejected" | "executed" | "failed" | "cancelled" | "undone" | "unknown";
                /**
                 * @description The proposal's status (spec, "Proposal").
                 * @enum {string}
                 */
                status: "proposed" | "pending" | "pending_approval" | "awaiting_second_approval" | "approved" | "acknowledged" | "reconciling" | "paused" | "dispatching" | "rejected" | "executed" | "failed" | "cancelled" | "undone" | "unknown";
                undoes_decision_id: string | null;
                /**
                 * Format: date-time
                 * @description ISO 8601 timestamp, UTC.
                 */
                created_at: string;
            };
            proposal: components["schemas"]["Proposal"];
        };
        ProposalList: {
            proposals: components["schemas"]["Proposal"][];
            next_cursor: string | null;
        };
        ProviderWebhookAccepted: {
            /** @enum {boolean} */
            accepted: true;
            /** @description The request id; it is in the audit record of the delivery. */
            trace_id: string;
            /** @description New artifacts: 1, or 0 when the tenant already had these bytes (a replay). */
            artifacts: number;
        };
        /** @description The provider's JSON payload, stored byte for byte: the Steward envelope of its source type, named by its `schema` field (bank_provider: steward.bank_provider.v1, card_processor: steward.card_processor.v1, chain_indexer: steward.chain_indexer.v1, erp_provider: steward.erp_provider.v1; generic_hmac: steward.accounting_provider.v1, steward.payroll_provider.v1 or any other JSON object). The body is not checked here: one that fits no envelope is recorded and its extraction fails with the reason (docs/provider-payloads.md). */
        ProviderWebhookPayload: components["schemas"]["BankProviderPayload"] | components["schemas"]["CardProcessorPayload"] | components["schemas"]["ChainIndexerPayload"] | components["schemas"]["ErpProviderPayload"] | components["schemas"]["AccountingProviderPayload"] | components["schemas"]["PayrollProviderPayload"] | {
            [key: string]: unknown;
        };
        QuestionFeed: {
            questions: components["schemas"]["WikiAnswer"][];
            next_cursor: string | null;
        };
        RailWebhookAccepted: {
            /** @enum {boolean} */
            accepted: true;
            /** @description False when the event changed nothing (a redelivery, or an event about an execution already settled that way). */
            applied: boolean;
            execution_id: string;
            /** @enum {string} */
            execution_status: "dispatched" | "in_flight" | "completed" | "failed";
        };
        RawArtifact: {
            raw_id: string;
            sha256: string;
            /** @description Serves the bytes as an attachment without a bearer until expires_at (10 minutes). With the filesystem blob store it is this service's GET /v1/raw/{raw_id}/content; with an S3-compatible store (BLOB_STORE=s3) it is a presigned GET on the store itself, which the store alone checks: a URL issued before a DELETE keeps working until it expires (the bytes are retained then anyway). */
            signed_url: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            expires_at: string;
            mime_type: string;
            bytes: number;
            source_type: string;
            filename: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            ingested_at: string;
            parent_raw_id: string | null;
            /**
             * @description pending (queued) → running → succeeded, failed (extraction_error says why) or skipped (no parser reads this artifact).
             * @enum {string}
             */
            extraction_status: "pending" | "running" | "succeeded" | "failed" | "skipped";
            extraction_error: string | null;
            parser: string | null;
            parser_version: string | null;
            extracted_at: string | null;
            parsed_rows: number | null;
            /** @description Rows the import refused, with their reasons: the row extraction stopped at, then the first 20 parsed rows normalization refused (the rest are counted in refused_rows_total). */
            refused_rows: {
                /**
                 * @description extraction: the data row the parser could not read, which stopped the file (a statement is read whole or not at all); normalization: a parsed row the Ledger refused.
                 * @enum {string}
                 */
                stage: "extraction" | "normalization";
                /** @description extraction: the file's data row, 1 being the first after the header; normalization: the parsed row's row_index. */
                row: number;
                parsed_row_id: string | null;
                reason: string;
            }[];
            /** @description Every row refused, listed or not. */
            refused_rows_total: number;
            normalization: {
                /** @description The Ledger's normalization job (also at GET /v1/ledger/jobs/{job_id}). */
                job_id: string;
                /**
                 * @description A failure before the last retry goes back to queued.
                 * @enum {string}
                 */
                status: "queued" | "running" | "succeeded" | "failed";
                /** @description Parsed rows normalized so far (refused ones included), recorded with each batch as it commits. */
                rows_done: number;
                rows_total: number | null;
                /** @description Ledger entities recorded for the first time, in the batches written so far. */
                created: number;
                /** @description Entities found again with the same content (nothing written): a re-import or an overlapping statement. */
                unchanged: number;
                /** @description Entities given a new version that superseded the current one (a pending transaction posted, an account gaining an identifier). */
                superseded: number;
                /** @description Parsed rows the Ledger refused (not a record it knows); listed in refused_rows. */
                refused_rows: number;
                error: string | null;
                started_at: string | null;
                finished_at: string | null;
            } | null;
        };
        ReconciliationMatch: {
            id: string;
            /** @enum {string} */
            match_type: "transaction_receipt" | "invoice_payment" | "statement_balance" | "wallet_transfer" | "payroll_bank_debit" | "subscription_charge" | "card_charge" | "onchain_settlement" | "obligation_duplicate";
            /** @enum {string} */
            status: "unmatched" | "matched" | "partially_matched" | "duplicate_possible" | "disputed" | "cleared" | "failed" | "reversed";
            /** @description What was matched: transaction:txn_…, invoice:inv_…, obligation:obl_…, balance:bal_…, account:acc_… */
            subject_refs: string[];
            amount: components["schemas"]["Amount"] | null;
            currency: string | null;
            difference: components["schemas"]["Amount"] | null;
            explanation: string;
            /** @description This version of the record. */
            version_id: string;
            version: number;
            supersedes: string | null;
            /** @description The Raw artifacts (raw_…) this record came from. */
            source_ids: string[];
            /** @description The parsed rows (rpr_…) this record came from. */
            evidence_ids: string[];
            /** @enum {string} */
            provenance: "extracted" | "inferred" | "ambiguous" | "human_confirmed" | "agent_contributed";
            confidence: number;
            /** @description Source details; `scenario` is `ar` on receivable invoices and obligations and `ap` on payable ones. */
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When the entity was first recorded (system time).
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When this version was recorded (system time).
             */
            updated_at: string;
            superseded_at: string | null;
        };
        RegisteredAgent: {
            id: string;
            /** @enum {string} */
            kind: "external";
            /** @description reader, contributor or proposer: fixes the agent's plain scopes and so its scope hash. */
            role: string;
            display_name: string;
            /**
             * @description The agent's state in your tenant (spec, "Agent state").
             * @enum {string}
             */
            state: "pending_onchain" | "active" | "quarantined" | "revoked";
            /** @description keccak256 (0x hex) of the role's plain scopes, sorted and joined by |; the AgentRegistry contract must hold it. */
            scope_hash: string;
            /** @description The agent's wallet (lower-case hex). */
            onchain_address: string | null;
            /** @description The registering transaction: as given, then as confirmed on chain. */
            registered_tx: string | null;
            /** @description null until the agent is activated. */
            registered_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description True while the agent's Raw contributions wait for a release (set by a halt). */
            contribution_hold: boolean;
        };
        SiwxChallenge: {
            /** @description Single use, bound to the address, held 300 seconds. */
            nonce: string;
            /** @description The address, EIP-55 checksummed, as the message must write it. */
            address: string;
            /** @description The message's first-line domain: PUBLIC_BASE_URL's host[:port]. */
            domain: string;
            /** @description The message's URI: PUBLIC_BASE_URL without a trailing slash. */
            uri: string;
            /** @enum {string} */
            version: "1";
            /** @description 8453. */
            chain_id: number;
            /** Format: date-time */
            issued_at: string;
            /**
             * Format: date-time
             * @description When the nonce expires.
             */
            expiration_time: string;
            /** @description The EIP-4361 message built from these fields, ready to sign with personal_sign. */
            message: string;
        };
        SuggestedQuestions: {
            suggested_questions: {
                /** @enum {string} */
                template: "cash_flow_summary" | "bills_due" | "spending_change" | "invoice_status" | "overdue_invoices" | "unpaid_bills" | "subscriptions" | "spending_total" | "income_total" | "transaction_count" | "average_payment" | "transaction_list";
                question: string;
                prompt: string | null;
                /** @description How many times questions of this template were asked in the tenant, all time. */
                usage_rank_score: number;
            }[];
        };
        Tenant: {
            /** @description Tenant id (UUID). */
            id: string;
            name: string;
            /** @enum {string} */
            status: "active" | "suspended";
            /** @enum {string} */
            environment: "sandbox" | "production";
            org_id: string | null;
            identity: {
                issuer: string;
                subject: string;
            } | null;
            /** @enum {string} */
            rate_limit_tier: "free" | "developer" | "production" | "enterprise";
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            updated_at: string;
        };
        Token: {
            access_token: string;
            /** @enum {string} */
            token_type: "Bearer";
            /** @description Seconds until the token expires. */
            expires_in: number;
            principal: components["schemas"]["Principal"];
        };
        Transaction: {
            id: string;
            account_id: string;
            external_transaction_id: string | null;
            amount: components["schemas"]["Amount"];
            currency: string;
            /**
             * @description transfer when a source names another of your accounts as the counterparty (its IBAN, or its wallet on the same chain), otherwise inflow, outflow or adjustment by the sign. A transaction recorded before that account existed becomes a transfer (a new version) at the next reconciliation, so the result does not depend on the order files arrive in.
             * @enum {string}
             */
            direction: "inflow" | "outflow" | "transfer" | "adjustment";
            /**
             * Format: date
             * @description A calendar date, YYYY-MM-DD.
             */
            transaction_date: string;
            posted_date: string | null;
            counterparty_id: string | null;
            category_id: string | null;
            /** @enum {string} */
            status: "pending" | "posted" | "cleared" | "failed" | "reversed" | "disputed";
            /** @description As the source wrote it. */
            description: string;
            description_normalized: string;
            /** @enum {string} */
            reconciliation_status: "unmatched" | "matched" | "partially_matched" | "duplicate_possible" | "disputed" | "cleared" | "failed" | "reversed";
            /** @description This version of the record. */
            version_id: string;
            version: number;
            supersedes: string | null;
            /** @description The Raw artifacts (raw_…) this record came from. */
            source_ids: string[];
            /** @description The parsed rows (rpr_…) this record came from. */
            evidence_ids: string[];
            /** @enum {string} */
            provenance: "extracted" | "inferred" | "ambiguous" | "human_confirmed" | "agent_contributed";
            confidence: number;
            /** @description Source details; `scenario` is `ar` on receivable invoices and obligations and `ap` on payable ones. */
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When the entity was first recorded (system time).
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When this version was recorded (system time).
             */
            updated_at: string;
            superseded_at: string | null;
        };
        UnlinkedWallet: {
            wallet_id: string;
            address: string;
            /** @enum {boolean} */
            deleted: true;
        };
        Wallet: {
            id: string;
            /** @description Tenant id (UUID). */
            tenant_id: string;
            address: string;
            /** @enum {string} */
            principal_type: "human" | "agent";
            principal_id: string;
            created_by: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
        };
        WebhookDeadLetter: {
            id: string;
            event_id: string;
            event_type: string;
            last_error: string;
            attempt_count: number;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            last_attempt_at: string;
        };
        WebhookEndpoint: {
            id: string;
            /** @description Tenant id (UUID). */
            tenant_id: string;
            url: string;
            description: string | null;
            /** @description Empty means every type. */
            event_types: string[];
            /** @enum {string} */
            status: "enabled" | "disabled";
            previous_secret_expires_at: string | null;
            created_by: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            updated_at: string;
        };
        WebhookEndpointWithSecret: {
            endpoint: components["schemas"]["WebhookEndpoint"];
            /** @description The signing secret (whsec_ + base64 of 32 bytes). Shown only in this response; store it now. */
            secret: string;
        };
        WikiAnswer: {
            /** @description wqn_… — the question record. */
            question_id: string;
            question: string;
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            as_of: string;
            max_evidence_depth: number;
            /** @description True only for an answer grounded in a Ledger query; false with reason and suggested_questions otherwise — never a guess. */
            answered: boolean;
            text: string;
            reason: {
                /** @enum {string} */
                code: "not_understood" | "period_missing" | "direction_missing" | "name_unknown" | "name_ambiguous" | "query_invalid" | "too_many_periods" | "language_model_unavailable";
                message: string;
            } | null;
            template: ("cash_flow_summary" | "bills_due" | "spending_change" | "invoice_status" | "overdue_invoices" | "unpaid_bills" | "subscriptions" | "spending_total" | "income_total" | "transaction_count" | "average_payment" | "transaction_list") | null;
            query: components["schemas"]["WikiQuery"] | null;
            figures: {
                /** @description spent, total, net, inflow, outflow, count, average, outstanding, change, listed… */
                key: string;
                /** @description A decimal string: an amount at its currency's scale, or a count. */
                value: string;
                currency: string | null;
                about: string | null;
            }[];
            /** @description The Ledger records the answer read (at most 20), each down to its parsed rows and raw artifacts, as deep as max_evidence_depth. */
            evidence_path: {
                /** @description kind:id — transaction:, invoice:, obligation:, account:, counterparty: (Ledger), parsed_row:, raw_artifact: (Raw). */
                ref: string;
                version_id: string | null;
                /** @description What this record was read from (parsed rows, each with its raw artifact) and, from depth 4, the account and counterparty it names. */
                evidence: {
                    ref: string;
                    version_id: string | null;
                    evidence: {
                        ref: string;
                        version_id: string | null;
                        evidence: unknown[];
                    }[];
                }[];
            }[];
            evidence: {
                /** @description How many Ledger records the query read. */
                records: number;
                cited: number;
                truncated: boolean;
            };
            provenance: {
                /** @enum {string} */
                method: "deterministic_parser" | "language_model_mapping" | "none";
                /** @enum {string} */
                wording: "deterministic" | "language_model";
                /**
                 * Format: date-time
                 * @description ISO 8601 timestamp, UTC.
                 */
                ledger_as_of: string;
                model: string | null;
            };
            confidence: number;
            suggested_questions: string[];
            /** @description The language-model calls made for this question, with their token counts. */
            usage: {
                /** @enum {string} */
                purpose: "map_question" | "word_answer";
                model: string;
                prompt_tokens: number;
                completion_tokens: number;
                /**
                 * @description rejected: the mapping failed the query schema, or the wording named a number not among the figures (the deterministic wording is kept).
                 * @enum {string}
                 */
                outcome: "used" | "rejected" | "failed";
            }[];
            receipt: {
                /** @description wiki_question:<question_id>: its audit event is at GET /v1/audit/entity/wiki_question/{question_id}. */
                audit_entity: string;
                /** @description SHA-256 of the JCS of {question, as_of, max_evidence_depth}. */
                question_sha256: string;
                /** @description SHA-256 of the JCS of query. */
                query_sha256: string;
                /** @description SHA-256 of the JCS of evidence_path. */
                evidence_sha256: string;
                /** @description SHA-256 of the JCS of {answered, text, figures, reason}. */
                answer_sha256: string;
            };
            /**
             * Format: date-time
             * @description ISO 8601 timestamp, UTC.
             */
            created_at: string;
        };
        WikiEntity: {
            entity_id: string;
            /**
             * @description The kind of Ledger record (its id prefix: acc_, bal_, cpy_, txn_, inv_, obl_, rcm_).
             * @enum {string}
             */
            kind: "account" | "balance" | "counterparty" | "transaction" | "invoice" | "obligation" | "reconciliation_match";
            as_of: string | null;
            /** @description How many versions the entity had as of the read: its Ledger versions and annotations recorded by then. */
            wiki_version: number;
            /**
             * @description human_confirmed when an annotation was recorded after the Ledger version shown; otherwise that version's provenance.
             * @enum {string}
             */
            provenance: "extracted" | "inferred" | "ambiguous" | "human_confirmed" | "agent_contributed";
            /** @description The Ledger version's confidence (an annotation does not change it). */
            confidence: number;
            /**
             * Format: date-time
             * @description When the latest of its versions (Ledger or annotation) was recorded.
             */
            recorded_at: string;
            ledger_version: {
                version_id: string;
                version: number;
                /**
                 * Format: date-time
                 * @description ISO 8601 timestamp, UTC.
                 */
                recorded_at: string;
                superseded_at: string | null;
                /** @enum {string} */
                provenance: "extracted" | "inferred" | "ambiguous" | "human_confirmed" | "agent_contributed";
                confidence: number;
            };
            /** @description The Ledger record as its Ledger route shows it (GET /v1/wiki/schema gives the schema of each kind). */
            record: components["schemas"]["Account"] | components["schemas"]["Balance"] | components["schemas"]["Counterparty"] | components["schemas"]["Transaction"] | components["schemas"]["Invoice"] | components["schemas"]["Obligation"] | components["schemas"]["ReconciliationMatch"];
            /** @description What the Wiki knows beyond the Ledger: its annotations, folded oldest first. */
            wiki: {
                note: string | null;
                /** @description The labels of the latest annotation that gave labels. */
                labels: string[];
                /** @description Field → the value a person asserted for it (the latest assertion per field). A Wiki-level assertion: the Ledger record is unchanged. */
                corrections: {
                    [key: string]: {
                        value: string | number | boolean;
                        annotation_id: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp, UTC.
                         */
                        recorded_at: string;
                    };
                };
                relation_status: ("confirmed" | "disputed") | null;
                annotation_count: number;
                last_annotated_at: string | null;
            };
            /** @description Raw refs of the entity (its Ledger version's source_ids and evidence_ids); GET …/evidence resolves them. */
            source_evidence: {
                /** @description The Raw artifacts (raw_…) the Ledger version came from. */
                raw_artifact_ids: string[];
                /** @description The parsed rows (rpr_…) the Ledger version came from. */
                parsed_row_ids: string[];
            };
        };
        /** @description The structured query the answer ran over the Ledger (docs/wiki.md, "Questions"). */
        WikiQuery: {
            /** @enum {string} */
            kind: "transaction_list";
            scope: {
                /** Format: date */
                from: string;
                /** Format: date */
                to: string;
                direction: ("inflow" | "outflow" | "transfer" | "adjustment") | null;
                account_id: string | null;
                counterparty_id: string | null;
                category_id: string | null;
                currency: string | null;
            };
            limit: number;
        } | {
            /** @enum {string} */
            kind: "transaction_aggregate";
            /** @enum {string} */
            measure: "total" | "count" | "average";
            scope: {
                /** Format: date */
                from: string;
                /** Format: date */
                to: string;
                direction: ("inflow" | "outflow" | "transfer" | "adjustment") | null;
                account_id: string | null;
                counterparty_id: string | null;
                category_id: string | null;
                currency: string | null;
            };
        } | {
            /** @enum {string} */
            kind: "cash_flow";
            scope: {
                /** Format: date */
                from: string;
                /** Format: date */
                to: string;
                direction: ("inflow" | "outflow" | "transfer" | "adjustment") | null;
                account_id: string | null;
                counterparty_id: string | null;
                category_id: string | null;
                currency: string | null;
            };
        } | {
            /** @enum {string} */
            kind: "spending_change";
            scope: {
                /** Format: date */
                from: string;
                /** Format: date */
                to: string;
                direction: ("inflow" | "outflow" | "transfer" | "adjustment") | null;
                account_id: string | null;
                counterparty_id: string | null;
                category_id: string | null;
                currency: string | null;
            };
            compare_to: {
                /** Format: date */
                from: string;
                /** Format: date */
                to: string;
            };
        } | {
            /** @enum {string} */
            kind: "invoices";
            /** @enum {string} */
            direction: "receivable" | "payable";
            /** @enum {string} */
            state: "all" | "open" | "overdue" | "paid";
            counterparty_id: string | null;
            invoice_number: string | null;
            /** Format: date */
            on: string;
            limit: number;
        } | {
            /** @enum {string} */
            kind: "bills_due";
            /** Format: date */
            on: string;
            /** Format: date */
            to: string;
            limit: number;
        } | {
            /** @enum {string} */
            kind: "subscriptions";
            /** Format: date */
            on: string;
            limit: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                        version: string;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ready";
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        openapi: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listErrorCodes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        errors: {
                            code: components["schemas"]["ErrorCode"];
                            status: number;
                            group: string;
                            summary: string;
                            docs_url: string;
                        }[];
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getErrorReference: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HTML page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    registerAgentDeprecated: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The error envelope of every non-2xx response. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    proposeAgentActionDeprecated: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The error envelope of every non-2xx response. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listActionsDeprecated: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The error envelope of every non-2xx response. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    replaceActionsDeprecated: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The error envelope of every non-2xx response. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createActionDeprecated: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The error envelope of every non-2xx response. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteActionsDeprecated: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The error envelope of every non-2xx response. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateActionsDeprecated: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The error envelope of every non-2xx response. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    signUp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /** @description 12 to 4096 bytes (UTF-8). */
                    password: string;
                    /** @description Display name of the new tenant (default "Sandbox tenant"). */
                    tenant_name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Tenant id (UUID). */
                        tenant_id: string;
                        user_id: string;
                        /** @enum {string} */
                        status: "pending";
                        /** @description Outside production only: the email-verification token. */
                        verification_token: string;
                    } | {
                        /** @description Tenant id (UUID). */
                        tenant_id: string;
                        user_id: string;
                        /** @enum {string} */
                        status: "pending";
                        /**
                         * @description Production only: the token was mailed.
                         * @enum {boolean}
                         */
                        verification_sent: true;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    verifyEmail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Tenant id (UUID). */
                    tenant_id: string;
                    token: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        verified: true;
                        user_id: string;
                        /** @enum {string} */
                        status: "active";
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Tenant id (UUID). */
                    tenant_id: string;
                    token: string;
                    /** @description 12 to 4096 bytes (UTF-8). */
                    password: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user_id: string;
                        member_id: string;
                        /** @enum {string} */
                        status: "active";
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    provisionTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description The platform identity to link; one identity links to at most one tenant. */
                    identity?: {
                        /** @description The identity provider or platform namespace. */
                        issuer: string;
                        /** @description The identity within the issuer. */
                        subject: string;
                    };
                    /** Format: email */
                    owner_email?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tenant: components["schemas"]["Tenant"];
                        owner: {
                            user_id: string;
                            member_id: string;
                            /** @description Outside production only: the invitation token. */
                            invitation_token?: string;
                            /**
                             * @description Production only: the invitation was mailed.
                             * @enum {boolean}
                             */
                            invitation_sent?: true;
                        } | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    provisionOrgTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description The platform identity to link; one identity links to at most one tenant. */
                    identity?: {
                        /** @description The identity provider or platform namespace. */
                        issuer: string;
                        /** @description The identity within the issuer. */
                        subject: string;
                    };
                    /** Format: email */
                    owner_email?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tenant: components["schemas"]["Tenant"];
                        owner: {
                            user_id: string;
                            member_id: string;
                            /** @description Outside production only: the invitation token. */
                            invitation_token?: string;
                            /**
                             * @description Production only: the invitation was mailed.
                             * @enum {boolean}
                             */
                            invitation_sent?: true;
                        } | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tenant"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Tenant id (UUID). */
                        tenantId: string;
                        /** @description Rows removed per table. */
                        deletedRows: {
                            [key: string]: number;
                        };
                        totalRows: number;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMembers: {
        parameters: {
            query?: {
                status?: "invited" | "active" | "deactivated";
                role?: "owner" | "admin" | "approver" | "viewer";
                /** @description Page size, 1 to 500 (default 50). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        members: components["schemas"]["Member"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    inviteMember: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /** @enum {string} */
                    role: "admin" | "approver" | "viewer";
                    approval_domains?: ("*" | "ach_outbound" | "ach_inbound" | "wire" | "onchain_transfer" | "erp_writeback" | "card_payment" | "x402_settle" | "escrow_release" | "vendor_risk" | "payment" | "collections" | "treasury" | "cash_forecast" | "dispute" | "compliance" | "revenue_intel" | "reconciliation" | "subscription" | "fraud_anomaly" | "personal_budget" | "financial_health" | "purchase_advisor" | "tax_prep" | "travel_finance" | "bill_management" | "debt_optimization" | "savings")[];
                    approval_limit?: {
                        /** @description ISO 4217 code, or USDC. */
                        currency: string;
                        /** @description Decimal string, at most 6 fractional digits; returned at its currency's scale, as an Amount ("2500.50" USD). */
                        value: string;
                    } | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        member: components["schemas"]["Member"];
                        /** @description Outside production only: the invitation token. */
                        invitation_token?: string;
                        /**
                         * @description Production only: the invitation was mailed.
                         * @enum {boolean}
                         */
                        invitation_sent?: true;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
                /** @description The member id (mem_…). An id that names nothing of your tenant, whatever its shape, is 404 member_not_found; over 255 characters is 400 request_params_invalid. */
                member_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateMember: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
                /** @description The member id (mem_…). An id that names nothing of your tenant, whatever its shape, is 404 member_not_found; over 255 characters is 400 request_params_invalid. */
                member_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    role?: "admin" | "approver" | "viewer";
                    approval_domains?: ("*" | "ach_outbound" | "ach_inbound" | "wire" | "onchain_transfer" | "erp_writeback" | "card_payment" | "x402_settle" | "escrow_release" | "vendor_risk" | "payment" | "collections" | "treasury" | "cash_forecast" | "dispute" | "compliance" | "revenue_intel" | "reconciliation" | "subscription" | "fraud_anomaly" | "personal_budget" | "financial_health" | "purchase_advisor" | "tax_prep" | "travel_finance" | "bill_management" | "debt_optimization" | "savings")[];
                    approval_limit?: {
                        /** @description ISO 4217 code, or USDC. */
                        currency: string;
                        /** @description Decimal string, at most 6 fractional digits; returned at its currency's scale, as an Amount ("2500.50" USD). */
                        value: string;
                    } | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deactivateMember: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
                /** @description The member id (mem_…). An id that names nothing of your tenant, whatever its shape, is 404 member_not_found; over 255 characters is 400 request_params_invalid. */
                member_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reactivateMember: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
                /** @description The member id (mem_…). An id that names nothing of your tenant, whatever its shape, is 404 member_not_found; over 255 characters is 400 request_params_invalid. */
                member_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    logIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    mintServiceToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Tenant id (UUID). */
                    tenant_id: string;
                    /** @description Why break-glass access is needed; recorded in the audit chain. */
                    reason: string;
                    /** @description What the token acts as (for example an internal agent name); default "break-glass". */
                    subject?: string;
                    /** @description A subset of the service-token scopes; default all of them. */
                    scopes?: ("ledger:read" | "ledger:write" | "wiki:read" | "raw:read" | "raw:write" | "policy:read" | "audit:read" | "audit:write" | "execution:read" | "execution:propose" | "payment_intent:propose" | "payment_intent:execute")[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSiwxChallenge: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The wallet that will sign (any letter case). */
                    address: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SiwxChallenge"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    signInWithWallet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    message: string;
                    /** @description 0x and 130 hex digits: an EIP-191 personal_sign signature. */
                    signature: string;
                    /** @description The client's session, recorded in the audit log. */
                    session_id: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCurrentPrincipal: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Principal"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                status?: "active" | "expired" | "revoked";
                /** @description Page size, 1 to 500 (default 50). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        api_keys: components["schemas"]["ApiKey"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    issueApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description Default: all three read scopes. */
                    scopes?: ("ledger:read" | "audit:read" | "governance:read")[];
                    /**
                     * Format: date-time
                     * @description ISO 8601 timestamp, UTC.
                     */
                    expires_at?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedApiKey"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
                /** @description The API key id (key_…). An id that names nothing of your tenant, whatever its shape, is 404 api_key_not_found; over 255 characters is 400 request_params_invalid. */
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
                /** @description The API key id (key_…). An id that names nothing of your tenant, whatever its shape, is 404 api_key_not_found; over 255 characters is 400 request_params_invalid. */
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Keep the old secret working this long (default 0: it stops at once). */
                    previous_secret_expires_in_seconds?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedApiKey"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
                /** @description The API key id (key_…). An id that names nothing of your tenant, whatever its shape, is 404 api_key_not_found; over 255 characters is 400 request_params_invalid. */
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 500 (default 50). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoints: components["schemas"]["WebhookEndpoint"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Where events are POSTed. http or https (https only in production), no user name or password; in production the host must resolve only to public internet addresses (docs/webhooks.md). */
                    url: string;
                    /** @description Event types to deliver, from the fixed allowlist; empty means every type. */
                    event_types?: ("agent.action.proposed" | "payment_intent.created" | "payment_intent.approved" | "payment_intent.awaiting_second_approval" | "proposal.awaiting_second_approval" | "proposal.decided" | "payment_intent.rejected" | "payment_intent.executed" | "payment_intent.failed" | "payment_intent.reconciling" | "member.changed" | "payment_intent.execute.after" | "ledger.counterparty.created" | "ledger.counterparty.updated" | "ledger.transaction.created" | "ledger.obligation.created" | "policy.evaluate" | "raw.ingest.new" | "raw.ingest.deduplicated" | "raw.extraction.status_changed" | "raw.source.status_changed")[];
                    description?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint id (whe_…). An id that names nothing of your tenant, whatever its shape, is 404 webhook_endpoint_not_found; over 255 characters is 400 request_params_invalid. */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The endpoint id (whe_…). An id that names nothing of your tenant, whatever its shape, is 404 webhook_endpoint_not_found; over 255 characters is 400 request_params_invalid. */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoint_id: string;
                        /** @enum {boolean} */
                        deleted: true;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The endpoint id (whe_…). An id that names nothing of your tenant, whatever its shape, is 404 webhook_endpoint_not_found; over 255 characters is 400 request_params_invalid. */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Where events are POSTed. http or https (https only in production), no user name or password; in production the host must resolve only to public internet addresses (docs/webhooks.md). */
                    url?: string;
                    /** @description Event types to deliver, from the fixed allowlist; empty means every type. */
                    event_types?: ("agent.action.proposed" | "payment_intent.created" | "payment_intent.approved" | "payment_intent.awaiting_second_approval" | "proposal.awaiting_second_approval" | "proposal.decided" | "payment_intent.rejected" | "payment_intent.executed" | "payment_intent.failed" | "payment_intent.reconciling" | "member.changed" | "payment_intent.execute.after" | "ledger.counterparty.created" | "ledger.counterparty.updated" | "ledger.transaction.created" | "ledger.obligation.created" | "policy.evaluate" | "raw.ingest.new" | "raw.ingest.deduplicated" | "raw.extraction.status_changed" | "raw.source.status_changed")[];
                    description?: string | null;
                    /** @enum {string} */
                    status?: "enabled" | "disabled";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateWebhookEndpointSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The endpoint id (whe_…). An id that names nothing of your tenant, whatever its shape, is 404 webhook_endpoint_not_found; over 255 characters is 400 request_params_invalid. */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Keep signing with the old secret too for this long (default 0: it stops at once). Deliveries then carry two signatures. */
                    previous_secret_expires_in_seconds?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDeadLetters: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 500 (default 50). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The endpoint id (whe_…). An id that names nothing of your tenant, whatever its shape, is 404 webhook_endpoint_not_found; over 255 characters is 400 request_params_invalid. */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoint_id: string;
                        dead_letters: components["schemas"]["WebhookDeadLetter"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    replayWebhookDeadLetters: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The endpoint id (whe_…). An id that names nothing of your tenant, whatever its shape, is 404 webhook_endpoint_not_found; over 255 characters is 400 request_params_invalid. */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoint_id: string;
                        /** @description Dead letters re-attempted by this call (at most 50). */
                        attempted: number;
                        /** @description Of those, delivered now: their dead letters are gone. */
                        redelivered: number;
                        /** @description Of those, failed again: attempt_count went up by one. */
                        still_failing: number;
                        /** @description Dead letters under the cap of 20 attempts that this call did not reach; call again. */
                        remaining: number;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Only events whose id sorts after this one: the id of the last event you handled. */
                after?: string;
                /** @description ISO 8601 timestamp, UTC. */
                since?: string;
                /** @description Only these event types, comma-separated (the allowlist of the webhook event types). */
                types?: string;
                /** @description Page size, 1 to 1000 (default 100). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: {
                            /** @description The event type, one of the allowlist. */
                            type: string;
                            /** @description The event id (evt_…): the webhook-id of its deliveries. */
                            id: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp, UTC.
                             */
                            created_at: string;
                            /** @description Tenant id (UUID). */
                            tenant_id: string;
                            audit_event_id: string | null;
                            /** @description The event's own fields (docs/webhooks.md). */
                            data: {
                                [key: string]: unknown;
                            };
                        }[];
                        /** @description More events follow: ask again with after = the id of the last event of this page. */
                        has_more: boolean;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getLatestAuditAnchor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditAnchor"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEntityAuditEvents: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 1000 (default 100). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path: {
                entityType: "account" | "balance" | "transaction" | "counterparty" | "obligation" | "document" | "invoice" | "payment_intent" | "reconciliation_match" | "proposal" | "execution" | "tenant" | "user" | "member" | "api_key" | "service_token" | "webhook_endpoint" | "audit_anchor" | "audit_export" | "wiki_question";
                /** @description The entity's id (a tenant's UUID, or an id such as mem_…, txn_…). An id that names nothing of your tenant, whatever its shape, is 404 audit_entity_not_found; over 255 characters is 400 request_params_invalid. */
                entityId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entity_type: string;
                        entity_id: string;
                        events: components["schemas"]["AuditEvent"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuditEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The audit event id (aev_…). An id that names nothing of your tenant, whatever its shape, is 404 audit_event_not_found; over 255 characters is 400 request_params_invalid. */
                event_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEventWithProof"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAuditEvents: {
        parameters: {
            query?: {
                layer?: "raw" | "ledger" | "wiki" | "policy" | "agent" | "execution" | "audit";
                /** @description An actor id, or type:id (for example user:usr_…). */
                actor?: string;
                /** @description ISO 8601 timestamp, UTC. */
                since?: string;
                /** @description ISO 8601 timestamp, UTC. */
                until?: string;
                /** @description Page size, 1 to 1000 (default 100). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: components["schemas"]["AuditEvent"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createAuditExport: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    format: "jsonl" | "csv";
                    /** @enum {string} */
                    layer?: "raw" | "ledger" | "wiki" | "policy" | "agent" | "execution" | "audit";
                    /**
                     * Format: date-time
                     * @description ISO 8601 timestamp, UTC.
                     */
                    since?: string;
                    /**
                     * Format: date-time
                     * @description ISO 8601 timestamp, UTC.
                     */
                    until?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditExport"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuditExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The export id (aex_…). An id that names nothing of your tenant, whatever its shape, is 404 audit_export_not_found; over 255 characters is 400 request_params_invalid. */
                export_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditExport"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    downloadAuditExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The export id (aex_…). An id that names nothing of your tenant, whatever its shape, is 404 audit_export_not_found; over 255 characters is 400 request_params_invalid. */
                export_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export file. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                    "text/csv": string;
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    verifyAuditChain: {
        parameters: {
            query?: {
                /** @description Also recompute every closed Merkle batch's root from its events and compare it with the stored root (default true). */
                check_anchors?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Tenant id (UUID). */
                        tenant_id: string;
                        /** @description Every linked event recomputes and links to the one before, up to the chain's head (and every checked batch root matches). */
                        ok: boolean;
                        events_checked: number;
                        anchors_checked: number;
                        /** @description The seq of the chain's head when the walk ended. */
                        head_seq: number;
                        /** @description Events recorded but not linked yet (the sequencer links them within about a second): not part of this check. */
                        unsequenced: number;
                        first_break: {
                            seq: number | null;
                            event_id: string | null;
                            anchor_id: string | null;
                            /** @enum {string} */
                            problem: "seq_gap" | "prev_hash_mismatch" | "hash_mismatch" | "head_mismatch" | "anchor_root_mismatch" | "anchor_range_mismatch";
                            expected: string;
                            found: string;
                        } | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    verifyPlatformAuditChain: {
        parameters: {
            query: {
                /** @description Tenant id (UUID). */
                tenant_id: string;
                /** @description Also recompute every closed Merkle batch's root from its events and compare it with the stored root (default true). */
                check_anchors?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Tenant id (UUID). */
                        tenant_id: string;
                        /** @description Every linked event recomputes and links to the one before, up to the chain's head (and every checked batch root matches). */
                        ok: boolean;
                        events_checked: number;
                        anchors_checked: number;
                        /** @description The seq of the chain's head when the walk ended. */
                        head_seq: number;
                        /** @description Events recorded but not linked yet (the sequencer links them within about a second): not part of this check. */
                        unsequenced: number;
                        first_break: {
                            seq: number | null;
                            event_id: string | null;
                            anchor_id: string | null;
                            /** @enum {string} */
                            problem: "seq_gap" | "prev_hash_mismatch" | "hash_mismatch" | "head_mismatch" | "anchor_root_mismatch" | "anchor_range_mismatch";
                            expected: string;
                            found: string;
                        } | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    verifyAuditProof: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 32 bytes of hex, with or without 0x. */
                    event_hash: string;
                    proof: string[];
                    /** @description 32 bytes of hex, with or without 0x. */
                    merkle_root: string;
                    /** @description Tenant id (UUID). */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The proof leads from event_hash to merkle_root. */
                        valid: boolean;
                        /** @description 32 bytes, 0x-prefixed lowercase hex. */
                        computed_root: string;
                        /** @description 32 bytes, 0x-prefixed lowercase hex. */
                        merkle_root: string;
                        /** @description A Steward batch (of tenant_id, if given) has this root, or the contract holds it on chain. */
                        anchored: boolean;
                        anchors: components["schemas"]["AuditAnchor"][];
                        onchain_published: boolean | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTransactions: {
        parameters: {
            query?: {
                account_id?: string;
                counterparty_id?: string;
                direction?: "inflow" | "outflow" | "transfer" | "adjustment";
                status?: "pending" | "posted" | "cleared" | "failed" | "reversed" | "disputed";
                /** @description A date (YYYY-MM-DD) or an ISO 8601 timestamp; only its calendar date, as written, is used. */
                since?: string;
                /** @description A date (YYYY-MM-DD) or an ISO 8601 timestamp; only its calendar date, as written, is used. */
                until?: string;
                /** @description Page size, 1 to 1000 (default 100). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
                /** @description System time: the Ledger as it was recorded at this instant (bitemporal read). Omitted: now. */
                as_of?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        transactions: components["schemas"]["Transaction"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTransaction: {
        parameters: {
            query?: {
                /** @description System time: the Ledger as it was recorded at this instant (bitemporal read). Omitted: now. */
                as_of?: string;
            };
            header?: never;
            path: {
                /** @description The transaction id (txn_…). An id that names nothing of your tenant, whatever its shape, is 404 ledger_transaction_not_found; over 255 characters is 400 request_params_invalid. */
                transaction_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAccounts: {
        parameters: {
            query?: {
                status?: "active" | "closed" | "frozen" | "pending";
                account_type?: "bank_checking" | "bank_savings" | "card" | "loan" | "line_of_credit" | "onchain" | "payment_processor";
                /** @description Page size, 1 to 500 (default 50). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
                /** @description System time: the Ledger as it was recorded at this instant (bitemporal read). Omitted: now. */
                as_of?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        accounts: components["schemas"]["Account"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAccount: {
        parameters: {
            query?: {
                /** @description System time: the Ledger as it was recorded at this instant (bitemporal read). Omitted: now. */
                as_of?: string;
            };
            header?: never;
            path: {
                /** @description The account id (acc_…). An id that names nothing of your tenant, whatever its shape, is 404 ledger_account_not_found; over 255 characters is 400 request_params_invalid. */
                account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountWithBalance"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listBalances: {
        parameters: {
            query?: {
                /** @description A date (YYYY-MM-DD) or an ISO 8601 timestamp; only its calendar date, as written, is used. */
                as_of?: string;
                account_id?: string;
                /** @description System time: balances as recorded at this instant (statements imported later are not seen). Omitted: now. */
                known_at?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        as_of: string | null;
                        /** @description One per account: its latest balance dated on or before as_of (closing preferred over current, available, opening). */
                        balances: components["schemas"]["Balance"][];
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCounterparties: {
        parameters: {
            query?: {
                type?: "merchant" | "vendor" | "customer" | "employer" | "employee" | "bank" | "wallet" | "exchange" | "tax_authority" | "agent" | "other";
                trust_state?: "unreviewed" | "trusted" | "paused" | "acknowledged";
                verified_status?: "unverified" | "self_attested" | "document_verified" | "sanctions_cleared";
                risk_level?: "low" | "medium" | "high" | "sanctioned";
                /** @description Page size, 1 to 500 (default 50). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
                /** @description System time: the Ledger as it was recorded at this instant (bitemporal read). Omitted: now. */
                as_of?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        counterparties: components["schemas"]["Counterparty"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCounterparty: {
        parameters: {
            query?: {
                /** @description System time: the Ledger as it was recorded at this instant (bitemporal read). Omitted: now. */
                as_of?: string;
            };
            header?: never;
            path: {
                /** @description The counterparty id (cpy_…). An id that names nothing of your tenant, whatever its shape, is 404 ledger_counterparty_not_found; over 255 characters is 400 request_params_invalid. */
                counterparty_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Counterparty"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    grantCounterpartyTrust: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The counterparty id (cpy_…). An id that names nothing of your tenant, whatever its shape, is 404 ledger_counterparty_not_found; over 255 characters is 400 request_params_invalid. */
                counterparty_id: string;
            };
            cookie?: never;
        };
        /** @description The body may be omitted. */
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Why; kept on the counterparty version, digested in the audit event. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Counterparty"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pauseCounterpartyTrust: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The counterparty id (cpy_…). An id that names nothing of your tenant, whatever its shape, is 404 ledger_counterparty_not_found; over 255 characters is 400 request_params_invalid. */
                counterparty_id: string;
            };
            cookie?: never;
        };
        /** @description The body may be omitted. */
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Why; kept on the counterparty version, digested in the audit event. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Counterparty"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    restoreCounterpartyTrust: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The counterparty id (cpy_…). An id that names nothing of your tenant, whatever its shape, is 404 ledger_counterparty_not_found; over 255 characters is 400 request_params_invalid. */
                counterparty_id: string;
            };
            cookie?: never;
        };
        /** @description The body may be omitted. */
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Why; kept on the counterparty version, digested in the audit event. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Counterparty"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    acknowledgeCounterpartyTrust: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The counterparty id (cpy_…). An id that names nothing of your tenant, whatever its shape, is 404 ledger_counterparty_not_found; over 255 characters is 400 request_params_invalid. */
                counterparty_id: string;
            };
            cookie?: never;
        };
        /** @description The body may be omitted. */
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Why; kept on the counterparty version, digested in the audit event. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Counterparty"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listInvoices: {
        parameters: {
            query?: {
                /** @description Default receivable: the receivables inventory. */
                direction?: "payable" | "receivable";
                status?: "draft" | "sent" | "partial" | "paid" | "overdue" | "cancelled" | "disputed";
                counterparty_id?: string;
                /** @description Page size, 1 to 500 (default 50). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
                /** @description System time: the Ledger as it was recorded at this instant (bitemporal read). Omitted: now. */
                as_of?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        direction: "payable" | "receivable";
                        invoices: components["schemas"]["Invoice"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInvoice: {
        parameters: {
            query?: {
                /** @description System time: the Ledger as it was recorded at this instant (bitemporal read). Omitted: now. */
                as_of?: string;
            };
            header?: never;
            path: {
                /** @description The invoice id (inv_…). An id that names nothing of your tenant, whatever its shape, is 404 ledger_invoice_not_found; over 255 characters is 400 request_params_invalid. */
                invoice_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listObligations: {
        parameters: {
            query?: {
                /** @description ar selects receivable obligations, ap payable ones (unless direction is given). */
                scenario?: "ap" | "ar";
                direction?: "payable" | "receivable";
                type?: "bill" | "invoice" | "subscription" | "loan" | "rent" | "payroll" | "tax" | "card_statement" | "other";
                status?: "open" | "settled" | "cancelled";
                counterparty_id?: string;
                /** @description Page size, 1 to 500 (default 50). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
                /** @description System time: the Ledger as it was recorded at this instant (bitemporal read). Omitted: now. */
                as_of?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        obligations: components["schemas"]["Obligation"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getObligation: {
        parameters: {
            query?: {
                /** @description System time: the Ledger as it was recorded at this instant (bitemporal read). Omitted: now. */
                as_of?: string;
            };
            header?: never;
            path: {
                /** @description The obligation id (obl_…). An id that names nothing of your tenant, whatever its shape, is 404 obligation_not_found; over 255 characters is 400 request_params_invalid. */
                obligation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Obligation"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    normalizeParsedRow: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A parsed row id (rpr_…), from GET /v1/raw/{raw_id}/parsed. */
                    raw_parsed_id: string;
                    /** @description Accepted and ignored (spec). */
                    target_entities?: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        raw_parsed_id: string;
                        raw_artifact_id: string;
                        parser: string;
                        parser_version: string;
                        /** @description Every Ledger entity the row resolved to, with the version that now records it. */
                        entities: {
                            /** @enum {string} */
                            kind: "account" | "balance" | "counterparty" | "transaction" | "invoice" | "obligation" | "reconciliation_match";
                            id: string;
                            version_id: string;
                            version: number;
                            /**
                             * @description unchanged: normalizing this row again wrote nothing.
                             * @enum {string}
                             */
                            outcome: "created" | "updated" | "unchanged";
                        }[];
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    requestReconciliation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description No options: a run reconciles the tenant's whole current Ledger. The body may be omitted. */
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerJob"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReconcileJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        job_id: string;
                        /**
                         * @description queued → running → succeeded | failed (a failure before the last retry goes back to queued).
                         * @enum {string}
                         */
                        status: "queued" | "running" | "succeeded" | "failed";
                        /** @description Who asked for the run: a member or key id, or ledger-normalize for the run after a normalization. */
                        created_by: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 timestamp, UTC.
                         */
                        created_at: string;
                        started_at: string | null;
                        finished_at: string | null;
                        error: string | null;
                        outcome: {
                            /** @description Reconciliation matches this run found; what earlier runs matched is settled and not found again. */
                            matches: number;
                            /** @description The same, by `match_type:status` (for example `invoice_payment:matched`). */
                            matches_by_type: {
                                [key: string]: number;
                            };
                            /** @description Statement balance checks retired because their period no longer exists. */
                            retired: number;
                            /** @description Entities the run recorded for the first time (matches). */
                            created: number;
                            /** @description Entities whose content the run left as it was. */
                            unchanged: number;
                            /** @description Entities the run gave a new version (a transaction's reconciliation status, an invoice's amount paid), superseding the current one. */
                            superseded: number;
                        } | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getLedgerJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job id (ljb_…). An id that names nothing of your tenant, whatever its shape, is 404 ledger_job_not_found; over 255 characters is 400 request_params_invalid. */
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerJob"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listReconciliationMatches: {
        parameters: {
            query?: {
                match_type?: "transaction_receipt" | "invoice_payment" | "statement_balance" | "wallet_transfer" | "payroll_bank_debit" | "subscription_charge" | "card_charge" | "onchain_settlement" | "obligation_duplicate";
                status?: "unmatched" | "matched" | "partially_matched" | "duplicate_possible" | "disputed" | "cleared" | "failed" | "reversed";
                /** @description Only matches involving this record, e.g. transaction:txn_…. */
                subject?: string;
                /** @description Page size, 1 to 500 (default 50). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
                /** @description System time: the Ledger as it was recorded at this instant (bitemporal read). Omitted: now. */
                as_of?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        matches: components["schemas"]["ReconciliationMatch"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ingestRawArtifact: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** @description One of email_inbound, csv_upload, pdf_upload, eth_address, agent_contributed, other. bank_provider, card_processor, erp_provider, accounting_provider, payroll_provider, chain_indexer_wallet, wiki_annotation are reserved (403 raw_source_reserved): they arrive only through provider webhooks or the Wiki. Any other value is 400 raw_source_unsupported. */
                    source_type: string;
                    /** @description As in the JSON form; absent: the file part's Content-Type. */
                    mime_type?: string;
                    /** @description A JSON object, as a string (at most 16384 bytes). */
                    source_ref?: string;
                    /**
                     * Format: binary
                     * @description The file, at most 52428800 bytes (413 raw_artifact_too_large above). It must be the last part.
                     */
                    file: string;
                };
                "application/json": {
                    /** @description One of email_inbound, csv_upload, pdf_upload, eth_address, agent_contributed, other. bank_provider, card_processor, erp_provider, accounting_provider, payroll_provider, chain_indexer_wallet, wiki_annotation are reserved (403 raw_source_reserved): they arrive only through provider webhooks or the Wiki. Any other value is 400 raw_source_unsupported. */
                    source_type: string;
                    /** @description Fetched by the service: http or https (https in production); every resolved address, and every redirect (at most 5), must be public. 400 raw_fetch_refused or raw_fetch_failed with details.reason. */
                    url: string;
                    /** @description What the source is (free form, at most 16384 bytes as JSON). */
                    source_ref?: {
                        [key: string]: unknown;
                    };
                    /** @description Sent as the Authorization header (e.g. "Bearer abc") to the URL's origin only, never across a redirect to another origin. Never stored or logged. */
                    auth_header?: string;
                    /** @description The media type to store. Accepted: text/csv, application/csv, application/x-ofx, application/ofx, application/vnd.intu.qfx, application/x-qfx, application/xml, text/xml, application/x-mt940, text/x-mt940, application/pdf, message/rfc822, application/json, text/plain (415 request_media_type_unsupported otherwise). A generic type (application/octet-stream, text/plain) is refined by the file name's extension. */
                    mime_type?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestResult"];
                };
            };
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestResult"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRawArtifacts: {
        parameters: {
            query?: {
                /** @description Only artifacts of this source type. */
                source_type?: "bank_provider" | "card_processor" | "erp_provider" | "accounting_provider" | "payroll_provider" | "email_inbound" | "csv_upload" | "pdf_upload" | "chain_indexer_wallet" | "eth_address" | "agent_contributed" | "wiki_annotation" | "other";
                /** @description Only artifacts whose extraction is in this state. */
                extraction_status?: "pending" | "running" | "succeeded" | "failed" | "skipped";
                /** @description Only artifacts ingested at or after this instant (inclusive). */
                since?: string;
                /** @description Only artifacts ingested before this instant (exclusive), so consecutive windows do not overlap. */
                until?: string;
                /** @description Page size, 1 to 1000 (default 100). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        artifacts: components["schemas"]["RawArtifact"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRawArtifact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The artifact id (raw_…). An id that names nothing of your tenant, whatever its shape, is 404 raw_artifact_not_found; over 255 characters is 400 request_params_invalid. */
                raw_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RawArtifact"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    tombstoneRawArtifact: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The artifact id (raw_…). An id that names nothing of your tenant, whatever its shape, is 404 raw_artifact_not_found; over 255 characters is 400 request_params_invalid. */
                raw_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tombstoned; the response has no body. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    downloadRawArtifactContent: {
        parameters: {
            query: {
                /** @description Tenant id (UUID). */
                tenant_id: string;
                /** @description Unix seconds. */
                expires: number;
                signature: string;
            };
            header?: never;
            path: {
                /** @description The artifact id (raw_…). An id that names nothing of your tenant, whatever its shape, is 404 raw_artifact_not_found; over 255 characters is 400 request_params_invalid. */
                raw_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The artifact's bytes, as an attachment. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listParsedRows: {
        parameters: {
            query?: {
                parser?: string;
                parser_version?: string;
                /** @description Page size, 1 to 1000 (default 100). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The artifact id (raw_…). An id that names nothing of your tenant, whatever its shape, is 404 raw_artifact_not_found; over 255 characters is 400 request_params_invalid. */
                raw_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        raw_id: string;
                        parsed: components["schemas"]["ParsedRow"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveProviderWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description The provider account the delivery is for (the connection's account). */
                "x-provider-account"?: string;
                /** @description t=<unix seconds>,v1=<hex HMAC-SHA-256(secret, "<t>." + raw body)>; the timestamp must be within 300 s of ours. */
                "x-provider-signature"?: string;
            };
            path: {
                provider: "bank_provider" | "card_processor" | "chain_indexer" | "erp_provider" | "generic_hmac";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProviderWebhookPayload"];
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProviderWebhookAccepted"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPlatformConnectors: {
        parameters: {
            query: {
                /** @description Tenant id (UUID). */
                tenant_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connections: {
                            /** @description pcn_… */
                            connection_id: string;
                            /** @description Tenant id (UUID). */
                            tenant_id: string;
                            /**
                             * @description The provider whose webhooks the connection accepts (POST /v1/raw/webhooks/{provider}).
                             * @enum {string}
                             */
                            provider: "bank_provider" | "card_processor" | "chain_indexer" | "erp_provider" | "generic_hmac";
                            account_ref: string;
                            /** @enum {string} */
                            status: "active" | "paused" | "revoked";
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp, UTC.
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp, UTC.
                             */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    addPlatformConnector: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Tenant id (UUID). */
                    tenant_id: string;
                    /**
                     * @description The provider whose webhooks the connection accepts (POST /v1/raw/webhooks/{provider}).
                     * @enum {string}
                     */
                    provider: "bank_provider" | "card_processor" | "chain_indexer" | "erp_provider" | "generic_hmac";
                    /** @description The provider account: the X-Provider-Account header its webhooks carry. Unique per provider across tenants. */
                    account_ref: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connection: {
                            /** @description pcn_… */
                            connection_id: string;
                            /** @description Tenant id (UUID). */
                            tenant_id: string;
                            /**
                             * @description The provider whose webhooks the connection accepts (POST /v1/raw/webhooks/{provider}).
                             * @enum {string}
                             */
                            provider: "bank_provider" | "card_processor" | "chain_indexer" | "erp_provider" | "generic_hmac";
                            account_ref: string;
                            /** @enum {string} */
                            status: "active" | "paused" | "revoked";
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp, UTC.
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp, UTC.
                             */
                            updated_at: string;
                        };
                        /** @description The signing secret: X-Provider-Signature is t=<unix seconds>,v1=<hex HMAC-SHA-256(secret, "<t>." + body)>. Shown in this response (and its replays for the same Idempotency-Key) only. */
                        secret: string;
                        /** @description Where the provider POSTs: PUBLIC_BASE_URL/v1/raw/webhooks/{provider}, as this server is configured. */
                        webhook_url: string;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pausePlatformConnector: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Tenant id (UUID). */
                    tenant_id: string;
                    /**
                     * @description The provider whose webhooks the connection accepts (POST /v1/raw/webhooks/{provider}).
                     * @enum {string}
                     */
                    provider: "bank_provider" | "card_processor" | "chain_indexer" | "erp_provider" | "generic_hmac";
                    /** @description The provider account: the X-Provider-Account header its webhooks carry. Unique per provider across tenants. */
                    account_ref: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connection: {
                            /** @description pcn_… */
                            connection_id: string;
                            /** @description Tenant id (UUID). */
                            tenant_id: string;
                            /**
                             * @description The provider whose webhooks the connection accepts (POST /v1/raw/webhooks/{provider}).
                             * @enum {string}
                             */
                            provider: "bank_provider" | "card_processor" | "chain_indexer" | "erp_provider" | "generic_hmac";
                            account_ref: string;
                            /** @enum {string} */
                            status: "active" | "paused" | "revoked";
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp, UTC.
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp, UTC.
                             */
                            updated_at: string;
                        };
                        /** @description false when the connection already had the status asked for (nothing recorded). */
                        changed: boolean;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resumePlatformConnector: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Tenant id (UUID). */
                    tenant_id: string;
                    /**
                     * @description The provider whose webhooks the connection accepts (POST /v1/raw/webhooks/{provider}).
                     * @enum {string}
                     */
                    provider: "bank_provider" | "card_processor" | "chain_indexer" | "erp_provider" | "generic_hmac";
                    /** @description The provider account: the X-Provider-Account header its webhooks carry. Unique per provider across tenants. */
                    account_ref: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connection: {
                            /** @description pcn_… */
                            connection_id: string;
                            /** @description Tenant id (UUID). */
                            tenant_id: string;
                            /**
                             * @description The provider whose webhooks the connection accepts (POST /v1/raw/webhooks/{provider}).
                             * @enum {string}
                             */
                            provider: "bank_provider" | "card_processor" | "chain_indexer" | "erp_provider" | "generic_hmac";
                            account_ref: string;
                            /** @enum {string} */
                            status: "active" | "paused" | "revoked";
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp, UTC.
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp, UTC.
                             */
                            updated_at: string;
                        };
                        /** @description false when the connection already had the status asked for (nothing recorded). */
                        changed: boolean;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokePlatformConnector: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Tenant id (UUID). */
                    tenant_id: string;
                    /**
                     * @description The provider whose webhooks the connection accepts (POST /v1/raw/webhooks/{provider}).
                     * @enum {string}
                     */
                    provider: "bank_provider" | "card_processor" | "chain_indexer" | "erp_provider" | "generic_hmac";
                    /** @description The provider account: the X-Provider-Account header its webhooks carry. Unique per provider across tenants. */
                    account_ref: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connection: {
                            /** @description pcn_… */
                            connection_id: string;
                            /** @description Tenant id (UUID). */
                            tenant_id: string;
                            /**
                             * @description The provider whose webhooks the connection accepts (POST /v1/raw/webhooks/{provider}).
                             * @enum {string}
                             */
                            provider: "bank_provider" | "card_processor" | "chain_indexer" | "erp_provider" | "generic_hmac";
                            account_ref: string;
                            /** @enum {string} */
                            status: "active" | "paused" | "revoked";
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp, UTC.
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp, UTC.
                             */
                            updated_at: string;
                        };
                        /** @description false when the connection already had the status asked for (nothing recorded). */
                        changed: boolean;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotatePlatformConnectorSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Tenant id (UUID). */
                    tenant_id: string;
                    /**
                     * @description The provider whose webhooks the connection accepts (POST /v1/raw/webhooks/{provider}).
                     * @enum {string}
                     */
                    provider: "bank_provider" | "card_processor" | "chain_indexer" | "erp_provider" | "generic_hmac";
                    /** @description The provider account: the X-Provider-Account header its webhooks carry. Unique per provider across tenants. */
                    account_ref: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connection: {
                            /** @description pcn_… */
                            connection_id: string;
                            /** @description Tenant id (UUID). */
                            tenant_id: string;
                            /**
                             * @description The provider whose webhooks the connection accepts (POST /v1/raw/webhooks/{provider}).
                             * @enum {string}
                             */
                            provider: "bank_provider" | "card_processor" | "chain_indexer" | "erp_provider" | "generic_hmac";
                            account_ref: string;
                            /** @enum {string} */
                            status: "active" | "paused" | "revoked";
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp, UTC.
                             */
                            created_at: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp, UTC.
                             */
                            updated_at: string;
                        };
                        /** @description The signing secret: X-Provider-Signature is t=<unix seconds>,v1=<hex HMAC-SHA-256(secret, "<t>." + body)>. Shown in this response (and its replays for the same Idempotency-Key) only. */
                        secret: string;
                        /** @description Where the provider POSTs: PUBLIC_BASE_URL/v1/raw/webhooks/{provider}, as this server is configured. */
                        webhook_url: string;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPolicyContentSchema: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A JSON Schema (draft 2020-12 compatible). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getActivePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Policy"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    composePolicyVersion: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Steward policy content
                     * @description The policy document (mandatory numeric version, rules (an auto rule may carry an autonomous_cap, a confirm rule approvals), optional lists, agent_actions, window_hours).
                     */
                    content: {
                        /** @description The document's own version label (mandatory, numeric); covered by the content hash. */
                        version: number;
                        /** @description Up to 500 rules, matched first match in document order; an action no rule matches is rejected (deny by default). */
                        rules: {
                            /** @description Unique within the policy; 1 to 128 characters: letters, digits, _ . : - (not starting with a symbol). */
                            id: string;
                            /** @description The action kinds the rule applies to; `any` (valid only here) applies to every kind. */
                            applies_to: ("outbound_payment" | "inbound_payment" | "ledger_write" | "onchain_tx" | "agent_action" | "any")[];
                            /** @description Conditions, all of which must hold (AND); an empty object always holds. A key the caller did not populate does not hold. Unknown keys are refused. Gate-only keys are never populated by POST /evaluate. */
                            when: {
                                /** @description Holds when the action amount is at most this, in the same currency. */
                                "amount.lte"?: {
                                    /** @description ISO 4217 code (USD, JPY, KWD) or a token symbol (USDC, USDT, ETH): capital letters and digits, 2 to 10 characters. */
                                    currency: string;
                                    /** @description Non-negative decimal string (never a JSON number), with at most as many fraction digits as the currency has (USD 2, JPY 0, KWD 3, USDC 6, USDT 6, ETH 18; unknown token symbols keep the digits as written). Compared exactly in minor units. */
                                    value: string;
                                };
                                /** @description Holds when the action amount is more than this, in the same currency. */
                                "amount.gt"?: {
                                    /** @description ISO 4217 code (USD, JPY, KWD) or a token symbol (USDC, USDT, ETH): capital letters and digits, 2 to 10 characters. */
                                    currency: string;
                                    /** @description Non-negative decimal string (never a JSON number), with at most as many fraction digits as the currency has (USD 2, JPY 0, KWD 3, USDC 6, USDT 6, ETH 18; unknown token symbols keep the digits as written). Compared exactly in minor units. */
                                    value: string;
                                };
                                /** @description Holds when the action counterparty_id is in this list (a name in `lists`). */
                                "counterparty.in"?: string;
                                /** @description Holds when the action has a counterparty_id and it is not in this list (a name in `lists`). */
                                "counterparty.not_in"?: string;
                                /** @description Holds when the action agent_id equals it. Gate only. One value, or a list of up to 100 distinct values any of which matches. */
                                agent_id?: string | string[];
                                /** @description Holds when the action agent_role equals it. One value, or a list of up to 100 distinct values any of which matches. */
                                agent_role?: string | string[];
                                /** @description Holds when the action tenant_category equals it. Gate only. One value, or a list of up to 100 distinct values any of which matches. */
                                tenant_category?: string | string[];
                                /** @description Holds when the action behavior_hash equals it. Gate only. One value, or a list of up to 100 distinct values any of which matches. */
                                behavior_hash?: string | string[];
                                /** @description Holds when the action action_id equals it. Gate only. One value, or a list of up to 100 distinct values any of which matches. */
                                action_id?: string | string[];
                                /** @description Holds when the action action_type equals it. Gate only. One value, or a list of up to 100 distinct values any of which matches. */
                                action_type?: string | string[];
                                /** @description Holds when the action risk_level equals it. Gate only. One value, or a list of up to 100 distinct values any of which matches. */
                                risk_level?: ("low" | "medium" | "high" | "sanctioned") | ("low" | "medium" | "high" | "sanctioned")[];
                                /**
                                 * @description Holds when the action risk_level is at most this (low < medium < high < sanctioned). Gate only.
                                 * @enum {string}
                                 */
                                "risk_level.lte"?: "low" | "medium" | "high" | "sanctioned";
                                /** @description Holds when the action confidence (0 to 1) is at least this. Gate only. */
                                "confidence.gte"?: number;
                                /** @description Holds when the action confidence (0 to 1) is below this. Gate only. */
                                "confidence.lt"?: number;
                                /** @description Holds when the action evidence_score (0 to 1) is at least this. Gate only. */
                                "evidence_score.gte"?: number;
                                /** @description Holds when the action evidence_score (0 to 1) is below this. Gate only. */
                                "evidence_score.lt"?: number;
                                /** @description Holds when the spend over the policy window, this action included, is at most this, in the same currency. Gate only. */
                                "spend_in_window.lte"?: {
                                    /** @description ISO 4217 code (USD, JPY, KWD) or a token symbol (USDC, USDT, ETH): capital letters and digits, 2 to 10 characters. */
                                    currency: string;
                                    /** @description Non-negative decimal string (never a JSON number), with at most as many fraction digits as the currency has (USD 2, JPY 0, KWD 3, USDC 6, USDT 6, ETH 18; unknown token symbols keep the digits as written). Compared exactly in minor units. */
                                    value: string;
                                };
                                /** @description Holds when the number of actions over the policy window, this one included, is at most this. Gate only. */
                                "tx_count_in_window.lte"?: number;
                            };
                            /** @description Approver label for a `confirm` rule (default `signer`); meaningless on auto and reject. */
                            require?: string;
                            /** @description Only on a `confirm` rule (else refused as approvals_on_non_confirm): how many distinct members must approve, 1 to 5 (default 1). The decision's required_approvers lists the approver label once per approval (require "finance", approvals 2 → ["finance", "finance"]). */
                            approvals?: number;
                            /**
                             * @description auto → allow (the gate's hard human-approval floor still holds an allowed money action for approval unless the rule's autonomous_cap covers it), confirm → needs approval, reject.
                             * @enum {string}
                             */
                            execute: "auto" | "confirm" | "reject";
                            /** @description Only on an `auto` rule: the signed amount up to which the actions this rule allows may execute without a human. An action in another currency, or above it, is not covered: the gate's human-approval floor holds it for approval. */
                            autonomous_cap?: {
                                /** @description ISO 4217 code (USD, JPY, KWD) or a token symbol (USDC, USDT, ETH): capital letters and digits, 2 to 10 characters. */
                                currency: string;
                                /** @description Non-negative decimal string (never a JSON number), with at most as many fraction digits as the currency has (USD 2, JPY 0, KWD 3, USDC 6, USDT 6, ETH 18; unknown token symbols keep the digits as written). Compared exactly in minor units. */
                                value: string;
                            };
                        }[];
                        /** @description Named counterparty lists for counterparty.in / not_in: up to 100 lists, 100000 ids in all. */
                        lists?: {
                            [key: string]: string[];
                        };
                        /** @description Signed per-agent allowlist: agent id → the action types it may resolve (up to 500 agents, 100 types each). When present, an action carrying an agent_id is rejected unless its action_type is listed for that agent. */
                        agent_actions?: {
                            [key: string]: string[];
                        };
                        /** @description The window of spend_in_window and tx_count_in_window, in hours (default 24). */
                        window_hours?: number;
                    };
                    /** @description Distinct authorized signers needed to activate it: 1 (default) to 20. */
                    quorum_required?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Policy version id (pol_…). */
                        policy_id: string;
                        /** @description The tenant's sequential policy version (the default policy is 1). */
                        version: number;
                        /** @enum {string} */
                        state: "pending_signatures";
                        /** @description keccak256 of the RFC 8785 canonical JSON of the content, 0x-prefixed. */
                        content_hash: string;
                        quorum_required: number;
                        signing_payload: {
                            /** @description { name: "Steward Policy", version: "1", chainId: 8453 }. */
                            domain: {
                                [key: string]: unknown;
                            };
                            types: {
                                [key: string]: {
                                    name: string;
                                    type: string;
                                }[];
                            };
                            /** @enum {string} */
                            primaryType: "Policy";
                            /** @description tenantId, policyId, version, contentHash, quorumRequired. */
                            message: {
                                [key: string]: unknown;
                            };
                        };
                        /** @description Lint errors and warnings of the content; quorum_below_active when quorum_required is below the active version's (activation needs the active quorum all the same); quorum_exceeds_signers when fewer authorized signers are linked than activation needs. */
                        warnings: components["schemas"]["PolicyLintFinding"][];
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    signPolicyVersion: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Policy version id (pol_…). */
                    policy_id: string;
                    signatures: {
                        /** @description The signer's address (any case). */
                        address: string;
                        /** @description The EIP-712 signature of signing_payload, 0x-prefixed hex. */
                        signature: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        policy: components["schemas"]["Policy"];
                        /** @description True when this call brought the policy to quorum and activated it. */
                        activated: boolean;
                        warnings: components["schemas"]["PolicyLintFinding"][];
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPolicyVersions: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 500 (default 100). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Newest first, pending and superseded versions included. */
                        versions: {
                            /** @description Policy version id (pol_…). */
                            id: string;
                            /** @description The tenant's sequential policy version (the default policy is 1). */
                            version: number;
                            /** @enum {string} */
                            state: "pending_signatures" | "active" | "superseded";
                            /** @description keccak256 of the RFC 8785 canonical JSON of the content, 0x-prefixed. */
                            content_hash: string;
                            quorum_required: number;
                            signers: string[];
                            activated_at: string | null;
                            deactivated_at: string | null;
                            created_by: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp, UTC.
                             */
                            created_at: string;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    evaluatePolicy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Only kind, counterparty_id, amount, agent_role and timestamp are accepted. */
                    action: {
                        /**
                         * @description The action kind (any is valid only inside a rule).
                         * @enum {string}
                         */
                        kind: "outbound_payment" | "inbound_payment" | "ledger_write" | "onchain_tx" | "agent_action";
                        counterparty_id?: string | null;
                        amount?: {
                            /** @description ISO 4217 code or token symbol (USDC). */
                            currency: string;
                            /** @description Non-negative decimal string. */
                            value: string;
                        } | null;
                        agent_role?: string | null;
                        timestamp?: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        outcome: "allow" | "confirm" | "reject";
                        matched_rule_id: string | null;
                        /** @description Empty unless the outcome is confirm: the approver label once per distinct approval needed (the matched rule's require, default signer, repeated approvals times: ["finance", "finance"] needs two different members); [signer] for the agent_action fallback. */
                        required_approvers: string[];
                        /** @description Additive: whether the matched rule's signed autonomous cap covers this action; the gate's hard human-approval floor holds allowed money actions that it does not cover. */
                        covered_by_autonomous_cap: boolean;
                        trace: {
                            /** @description A rule id, or a pseudo-rule: [agent_actions], [autonomous_cap], [fallback], [default_deny]. */
                            rule_id: string;
                            matched: boolean;
                            checks: {
                                key: string;
                                passed: boolean;
                                detail: string;
                            }[];
                        }[];
                        /** @description Policy version id (pol_…). */
                        policy_id: string;
                        /** @description The tenant's sequential policy version (the default policy is 1). */
                        policy_version: number;
                        /** @description The policy.evaluate audit event this call recorded. */
                        audit_event_id: string;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    lintPolicyContent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Any JSON value: schema violations are reported as error findings, not refused. */
                    policy_content: unknown;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Tenant id (UUID). */
                        tenant_id: string;
                        errors: number;
                        warnings: number;
                        findings: components["schemas"]["PolicyLintFinding"][];
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    simulatePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The evaluated fields, plus the fields the gate populates (agent_id, action_type, tenant_category, confidence, evidence_score, risk_level, spend_in_window, tx_count_in_window, behavior_hash, action_id). */
                    action: {
                        /**
                         * @description The action kind (any is valid only inside a rule).
                         * @enum {string}
                         */
                        kind: "outbound_payment" | "inbound_payment" | "ledger_write" | "onchain_tx" | "agent_action";
                        counterparty_id?: string | null;
                        amount?: {
                            /** @description ISO 4217 code or token symbol (USDC). */
                            currency: string;
                            /** @description Non-negative decimal string. */
                            value: string;
                        } | null;
                        agent_role?: string | null;
                        timestamp?: string | null;
                        agent_id?: string | null;
                        action_type?: string | null;
                        tenant_category?: string | null;
                        confidence?: number | null;
                        evidence_score?: number | null;
                        risk_level?: ("low" | "medium" | "high" | "sanctioned") | null;
                        spend_in_window?: {
                            /** @description ISO 4217 code or token symbol (USDC). */
                            currency: string;
                            /** @description Non-negative decimal string. */
                            value: string;
                        } | null;
                        tx_count_in_window?: number | null;
                        behavior_hash?: string | null;
                        action_id?: string | null;
                    };
                    /** @description The tenant's sequential policy version (the default policy is 1). */
                    version: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        decision: components["schemas"]["PolicyDecision"];
                        /** @description The tenant's sequential policy version (the default policy is 1). */
                        policy_version: number;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    simulatePolicyHistorically: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Steward policy content
                     * @description The candidate policy document (not stored).
                     */
                    policy_content: {
                        /** @description The document's own version label (mandatory, numeric); covered by the content hash. */
                        version: number;
                        /** @description Up to 500 rules, matched first match in document order; an action no rule matches is rejected (deny by default). */
                        rules: {
                            /** @description Unique within the policy; 1 to 128 characters: letters, digits, _ . : - (not starting with a symbol). */
                            id: string;
                            /** @description The action kinds the rule applies to; `any` (valid only here) applies to every kind. */
                            applies_to: ("outbound_payment" | "inbound_payment" | "ledger_write" | "onchain_tx" | "agent_action" | "any")[];
                            /** @description Conditions, all of which must hold (AND); an empty object always holds. A key the caller did not populate does not hold. Unknown keys are refused. Gate-only keys are never populated by POST /evaluate. */
                            when: {
                                /** @description Holds when the action amount is at most this, in the same currency. */
                                "amount.lte"?: {
                                    /** @description ISO 4217 code (USD, JPY, KWD) or a token symbol (USDC, USDT, ETH): capital letters and digits, 2 to 10 characters. */
                                    currency: string;
                                    /** @description Non-negative decimal string (never a JSON number), with at most as many fraction digits as the currency has (USD 2, JPY 0, KWD 3, USDC 6, USDT 6, ETH 18; unknown token symbols keep the digits as written). Compared exactly in minor units. */
                                    value: string;
                                };
                                /** @description Holds when the action amount is more than this, in the same currency. */
                                "amount.gt"?: {
                                    /** @description ISO 4217 code (USD, JPY, KWD) or a token symbol (USDC, USDT, ETH): capital letters and digits, 2 to 10 characters. */
                                    currency: string;
                                    /** @description Non-negative decimal string (never a JSON number), with at most as many fraction digits as the currency has (USD 2, JPY 0, KWD 3, USDC 6, USDT 6, ETH 18; unknown token symbols keep the digits as written). Compared exactly in minor units. */
                                    value: string;
                                };
                                /** @description Holds when the action counterparty_id is in this list (a name in `lists`). */
                                "counterparty.in"?: string;
                                /** @description Holds when the action has a counterparty_id and it is not in this list (a name in `lists`). */
                                "counterparty.not_in"?: string;
                                /** @description Holds when the action agent_id equals it. Gate only. One value, or a list of up to 100 distinct values any of which matches. */
                                agent_id?: string | string[];
                                /** @description Holds when the action agent_role equals it. One value, or a list of up to 100 distinct values any of which matches. */
                                agent_role?: string | string[];
                                /** @description Holds when the action tenant_category equals it. Gate only. One value, or a list of up to 100 distinct values any of which matches. */
                                tenant_category?: string | string[];
                                /** @description Holds when the action behavior_hash equals it. Gate only. One value, or a list of up to 100 distinct values any of which matches. */
                                behavior_hash?: string | string[];
                                /** @description Holds when the action action_id equals it. Gate only. One value, or a list of up to 100 distinct values any of which matches. */
                                action_id?: string | string[];
                                /** @description Holds when the action action_type equals it. Gate only. One value, or a list of up to 100 distinct values any of which matches. */
                                action_type?: string | string[];
                                /** @description Holds when the action risk_level equals it. Gate only. One value, or a list of up to 100 distinct values any of which matches. */
                                risk_level?: ("low" | "medium" | "high" | "sanctioned") | ("low" | "medium" | "high" | "sanctioned")[];
                                /**
                                 * @description Holds when the action risk_level is at most this (low < medium < high < sanctioned). Gate only.
                                 * @enum {string}
                                 */
                                "risk_level.lte"?: "low" | "medium" | "high" | "sanctioned";
                                /** @description Holds when the action confidence (0 to 1) is at least this. Gate only. */
                                "confidence.gte"?: number;
                                /** @description Holds when the action confidence (0 to 1) is below this. Gate only. */
                                "confidence.lt"?: number;
                                /** @description Holds when the action evidence_score (0 to 1) is at least this. Gate only. */
                                "evidence_score.gte"?: number;
                                /** @description Holds when the action evidence_score (0 to 1) is below this. Gate only. */
                                "evidence_score.lt"?: number;
                                /** @description Holds when the spend over the policy window, this action included, is at most this, in the same currency. Gate only. */
                                "spend_in_window.lte"?: {
                                    /** @description ISO 4217 code (USD, JPY, KWD) or a token symbol (USDC, USDT, ETH): capital letters and digits, 2 to 10 characters. */
                                    currency: string;
                                    /** @description Non-negative decimal string (never a JSON number), with at most as many fraction digits as the currency has (USD 2, JPY 0, KWD 3, USDC 6, USDT 6, ETH 18; unknown token symbols keep the digits as written). Compared exactly in minor units. */
                                    value: string;
                                };
                                /** @description Holds when the number of actions over the policy window, this one included, is at most this. Gate only. */
                                "tx_count_in_window.lte"?: number;
                            };
                            /** @description Approver label for a `confirm` rule (default `signer`); meaningless on auto and reject. */
                            require?: string;
                            /** @description Only on a `confirm` rule (else refused as approvals_on_non_confirm): how many distinct members must approve, 1 to 5 (default 1). The decision's required_approvers lists the approver label once per approval (require "finance", approvals 2 → ["finance", "finance"]). */
                            approvals?: number;
                            /**
                             * @description auto → allow (the gate's hard human-approval floor still holds an allowed money action for approval unless the rule's autonomous_cap covers it), confirm → needs approval, reject.
                             * @enum {string}
                             */
                            execute: "auto" | "confirm" | "reject";
                            /** @description Only on an `auto` rule: the signed amount up to which the actions this rule allows may execute without a human. An action in another currency, or above it, is not covered: the gate's human-approval floor holds it for approval. */
                            autonomous_cap?: {
                                /** @description ISO 4217 code (USD, JPY, KWD) or a token symbol (USDC, USDT, ETH): capital letters and digits, 2 to 10 characters. */
                                currency: string;
                                /** @description Non-negative decimal string (never a JSON number), with at most as many fraction digits as the currency has (USD 2, JPY 0, KWD 3, USDC 6, USDT 6, ETH 18; unknown token symbols keep the digits as written). Compared exactly in minor units. */
                                value: string;
                            };
                        }[];
                        /** @description Named counterparty lists for counterparty.in / not_in: up to 100 lists, 100000 ids in all. */
                        lists?: {
                            [key: string]: string[];
                        };
                        /** @description Signed per-agent allowlist: agent id → the action types it may resolve (up to 500 agents, 100 types each). When present, an action carrying an agent_id is rejected unless its action_type is listed for that agent. */
                        agent_actions?: {
                            [key: string]: string[];
                        };
                        /** @description The window of spend_in_window and tx_count_in_window, in hours (default 24). */
                        window_hours?: number;
                    };
                    /**
                     * Format: date-or-date-time
                     * @description A date (YYYY-MM-DD) or an ISO 8601 timestamp; its calendar date, as written, is used (inclusive).
                     */
                    period_start: string;
                    /**
                     * Format: date-or-date-time
                     * @description A date (YYYY-MM-DD) or an ISO 8601 timestamp; its calendar date, as written, is used (inclusive).
                     */
                    period_end: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        total: number;
                        would_allow: number;
                        would_confirm: number;
                        would_reject: number;
                        diff_vs_active: {
                            /** @description allow under the candidate, not under the active policy. */
                            newly_allowed: {
                                transaction_id: string;
                                /** Format: date */
                                transaction_date: string;
                                /** @description An amount: currency and decimal string. */
                                amount: {
                                    /** @description ISO 4217 code or token symbol (USDC). */
                                    currency: string;
                                    /** @description Non-negative decimal string. */
                                    value: string;
                                };
                                counterparty_id: string | null;
                                /**
                                 * @description The outcome under the active policy.
                                 * @enum {string}
                                 */
                                before: "allow" | "confirm" | "reject";
                                /**
                                 * @description The outcome under the candidate.
                                 * @enum {string}
                                 */
                                after: "allow" | "confirm" | "reject";
                                matched_rule_before: string | null;
                                matched_rule_after: string | null;
                            }[];
                            /** @description reject under the candidate, not under the active policy. */
                            newly_rejected: {
                                transaction_id: string;
                                /** Format: date */
                                transaction_date: string;
                                /** @description An amount: currency and decimal string. */
                                amount: {
                                    /** @description ISO 4217 code or token symbol (USDC). */
                                    currency: string;
                                    /** @description Non-negative decimal string. */
                                    value: string;
                                };
                                counterparty_id: string | null;
                                /**
                                 * @description The outcome under the active policy.
                                 * @enum {string}
                                 */
                                before: "allow" | "confirm" | "reject";
                                /**
                                 * @description The outcome under the candidate.
                                 * @enum {string}
                                 */
                                after: "allow" | "confirm" | "reject";
                                matched_rule_before: string | null;
                                matched_rule_after: string | null;
                            }[];
                            /** @description Any other change of outcome (for example allow → confirm). */
                            changed_other: {
                                transaction_id: string;
                                /** Format: date */
                                transaction_date: string;
                                /** @description An amount: currency and decimal string. */
                                amount: {
                                    /** @description ISO 4217 code or token symbol (USDC). */
                                    currency: string;
                                    /** @description Non-negative decimal string. */
                                    value: string;
                                };
                                counterparty_id: string | null;
                                /**
                                 * @description The outcome under the active policy.
                                 * @enum {string}
                                 */
                                before: "allow" | "confirm" | "reject";
                                /**
                                 * @description The outcome under the candidate.
                                 * @enum {string}
                                 */
                                after: "allow" | "confirm" | "reject";
                                matched_rule_before: string | null;
                                matched_rule_after: string | null;
                            }[];
                            unchanged: number;
                            /** @description True when a list was cut at its item limit (the counts above still cover every action). */
                            items_truncated: boolean;
                        };
                        /**
                         * @description Which recorded actions were replayed (payment intents take precedence once they exist).
                         * @enum {string}
                         */
                        source: "ledger_outflows";
                        /** @description The tenant's sequential policy version (the default policy is 1). */
                        active_policy_version: number;
                        /** Format: date */
                        period_start: string;
                        /** Format: date */
                        period_end: string;
                        /** @description True when the period holds more than 10000 actions; the oldest 10000 were replayed. */
                        truncated: boolean;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    diffPolicyVersions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The tenant's sequential policy version (the default policy is 1). */
                    from_version: number;
                    /** @description The tenant's sequential policy version (the default policy is 1). */
                    to_version: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The tenant's sequential policy version (the default policy is 1). */
                        from_version: number;
                        /** @description The tenant's sequential policy version (the default policy is 1). */
                        to_version: number;
                        added: {
                            [key: string]: unknown;
                        }[];
                        removed: {
                            [key: string]: unknown;
                        }[];
                        modified: {
                            rule_id: string;
                            field: string;
                            before: unknown;
                            after: unknown;
                        }[];
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWallets: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 500 (default 50). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        wallets: components["schemas"]["Wallet"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    linkWallet: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 0x + 40 hex digits, any case (a mixed-case address must have a valid EIP-55 checksum); stored lower-cased. */
                    address: string;
                    /**
                     * @description human: the calling member's own wallet (it signs in as them, and is an authorized policy signer while they are active); agent: an agent's wallet.
                     * @enum {string}
                     */
                    principal_type: "human" | "agent";
                    /** @description agent: the agent id (required). human: omitted, or the caller's own user id (a member links their own wallet; anyone else's is 400). */
                    principal_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Wallet"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    unlinkWallet: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Your tenant's id (UUID). Any other value, whatever its shape, is 403 auth_tenant_mismatch; over 255 characters is 400 request_params_invalid. */
                tenant_id: string;
                /** @description The wallet id (wal_…). An id that names nothing of your tenant, whatever its shape, is 404 wallet_not_found; over 255 characters is 400 request_params_invalid. */
                wallet_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnlinkedWallet"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPaymentIntents: {
        parameters: {
            query?: {
                status?: "proposed" | "pending_approval" | "awaiting_second_approval" | "approved" | "rejected" | "paused" | "cancelled" | "dispatching" | "executed" | "failed" | "reconciling" | "shadow_completed";
                /** @description What kind of money movement (spec, "PaymentIntent"). */
                action_type?: "ach_outbound" | "ach_inbound" | "wire" | "onchain_transfer" | "erp_writeback" | "card_payment" | "x402_settle" | "escrow_release";
                /** @description Only intents this agent proposed. */
                agent_id?: string;
                /** @description ISO 8601 timestamp, UTC. */
                created_from?: string;
                /** @description ISO 8601 timestamp, UTC. */
                created_to?: string;
                /** @description Page size, 1 to 500 (default 50). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentIntentList"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPaymentIntent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description A proposal with every field, or the pay_invoice shortcut (amount = what is outstanding, currency, counterparty and evidence from the Ledger invoice). */
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description What kind of money movement (spec, "PaymentIntent").
                     * @enum {string}
                     */
                    action_type: "ach_outbound" | "ach_inbound" | "wire" | "onchain_transfer" | "erp_writeback" | "card_payment" | "x402_settle" | "escrow_release";
                    /** @description The Ledger account the money leaves (or, for ach_inbound, arrives in); 404 ledger_account_not_found when not the tenant's. */
                    source_account_id: string;
                    /** @description The Ledger counterparty paid; 404 ledger_counterparty_not_found when not the tenant's. */
                    destination_counterparty_id: string;
                    /** @description A positive decimal string with at most the currency's fraction digits (USDC 6), such as "125.00". No sign, exponent or grouping. */
                    amount: string;
                    /** @description USDC for x402_settle and escrow_release (and only for them); every other action type takes a three-letter code (^[A-Z]{3}$) other than USDC. */
                    currency: string;
                    /** @description A Ledger invoice this payment is for; 404 ledger_invoice_not_found when not the tenant's. */
                    invoice_id?: string;
                    /** @description A Ledger obligation this payment settles: 404 obligation_not_found, 422 obligation_direction_invalid unless payable. */
                    obligation_id?: string;
                    /** @description Raw parsed rows supporting the proposal, at most 50; 404 ledger_parsed_row_not_found names any that is not the tenant's. */
                    evidence_ids?: string[];
                    /** @description The proposer's confidence in the proposal, 0..1: the policy's confidence key. */
                    confidence?: number;
                } | {
                    /**
                     * @description The invoice shortcut.
                     * @enum {string}
                     */
                    type: "pay_invoice";
                    /** @description A payable Ledger invoice: 404 ledger_invoice_not_found, 409 invoice_already_paid, 422 obligation_direction_invalid for a receivable. */
                    invoice_id: string;
                    /**
                     * @description What kind of money movement (spec, "PaymentIntent").
                     * @enum {string}
                     */
                    action_type?: "ach_outbound" | "ach_inbound" | "wire" | "onchain_transfer" | "erp_writeback" | "card_payment" | "x402_settle" | "escrow_release";
                    /** @description Default: the tenant's one active account in the invoice's currency (400 validation_failed when there is none or several). */
                    source_account_id?: string;
                    /** @description The proposer's confidence in the proposal, 0..1: the policy's confidence key. */
                    confidence?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentIntent"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPaymentIntent: {
        parameters: {
            query?: {
                /** @description agent adds the proposing agent: {id, kind, display_name}, kind internal for a first-party agent or a service token, external for a registered agent; null for a person's proposal. */
                expand?: "agent";
            };
            header?: never;
            path: {
                /** @description The payment intent id (pi_…). An id that names nothing of your tenant, whatever its shape, is 404 payment_intent_not_found; over 255 characters is 400 request_params_invalid. */
                payment_intent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentIntent"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPaymentIntentReplayInvestigation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The payment intent id (pi_…). An id that names nothing of your tenant, whatever its shape, is 404 payment_intent_not_found; over 255 characters is 400 request_params_invalid. */
                payment_intent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentIntentReplayInvestigation"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    approvePaymentIntent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The payment intent id (pi_…). An id that names nothing of your tenant, whatever its shape, is 404 payment_intent_not_found; over 255 characters is 400 request_params_invalid. */
                payment_intent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentIntent"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rejectPaymentIntent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The payment intent id (pi_…). An id that names nothing of your tenant, whatever its shape, is 404 payment_intent_not_found; over 255 characters is 400 request_params_invalid. */
                payment_intent_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Why, at most 500 characters. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentIntent"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pausePaymentIntent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The payment intent id (pi_…). An id that names nothing of your tenant, whatever its shape, is 404 payment_intent_not_found; over 255 characters is 400 request_params_invalid. */
                payment_intent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentIntent"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelPaymentIntent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The payment intent id (pi_…). An id that names nothing of your tenant, whatever its shape, is 404 payment_intent_not_found; over 255 characters is 400 request_params_invalid. */
                payment_intent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentIntent"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    executePaymentIntent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The payment intent id (pi_…). An id that names nothing of your tenant, whatever its shape, is 404 payment_intent_not_found; over 255 characters is 400 request_params_invalid. */
                payment_intent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentIntentDispatch"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resumePaymentIntent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The payment intent id (pi_…). An id that names nothing of your tenant, whatever its shape, is 404 payment_intent_not_found; over 255 characters is 400 request_params_invalid. */
                payment_intent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentIntent"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProof: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The action (PaymentIntent) id (pi_…). An id that names nothing of your tenant, whatever its shape, is 404 proof_not_found; over 255 characters is 400 request_params_invalid. */
                action_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The proof of one action: every field is derived from, or bound by a digest in, the audit events it carries (docs/proofs.md). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Proof"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    viewProof: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The action (PaymentIntent) id (pi_…). An id that names nothing of your tenant, whatever its shape, is 404 proof_not_found; over 255 characters is 400 request_params_invalid. */
                action_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HTML page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    proposeAgentAction: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description A non-money finding an agent proposes. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description The stored action type of the finding (flag_transaction, remind, propose_match, block_payment, tag_tax_item, recommend_savings_transfer, …, or a public proposal type itself). It must resolve to a public proposal type (docs/proposals.md, "Types"); a payment action type (ach_outbound, pay_invoice, …) is 400: money moves are PaymentIntents. */
                    action_type: string;
                    /** @description One or two plain sentences a person reads. */
                    narrative: string;
                    /** @description How sure the agent is, 0..1. */
                    confidence: number;
                    /** @description What the finding relies on (kind and ref, as POST /v1/evidence/resolve takes them), at most 50. */
                    evidence?: {
                        kind: string;
                        ref: string;
                    }[];
                    /** @description The stored action's fields (free-form, at most 50 keys). */
                    details?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentActionProposed"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAgents: {
        parameters: {
            query?: {
                kind?: "internal" | "external";
                capability?: string;
                category?: "business" | "consumer" | "agnostic";
                /** @description enabled: enabled by default; disabled: not. */
                state?: "enabled" | "disabled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentList"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    routeAgent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description A domain-event name (ledger.obligation.created, …). Give exactly one of event and intent. */
                    event?: string;
                    /** @description Free text (“which bills are due?”). Give exactly one of event and intent. */
                    intent?: string;
                    /** @description Anything the caller wants recorded with the decision; as_of sets the day a run reads the Ledger for. */
                    context?: {
                        /**
                         * Format: date
                         * @description The day the agent runs for (default: today, UTC).
                         */
                        as_of?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentRoutingResult"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    runAgent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description A domain-event name (ledger.obligation.created, …). Give exactly one of event and intent. */
                    event?: string;
                    /** @description Free text (“which bills are due?”). Give exactly one of event and intent. */
                    intent?: string;
                    /** @description Anything the caller wants recorded with the decision; as_of sets the day a run reads the Ledger for. */
                    context?: {
                        /**
                         * Format: date
                         * @description The day the agent runs for (default: today, UTC).
                         */
                        as_of?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentRunResult"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    queueAgentEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description A domain-event name (ledger.obligation.created, …). Give exactly one of event and intent. */
                    event?: string;
                    /** @description Free text (“which bills are due?”). Give exactly one of event and intent. */
                    intent?: string;
                    /** @description Anything the caller wants recorded with the decision; as_of sets the day a run reads the Ledger for. */
                    context?: {
                        /**
                         * Format: date
                         * @description The day the agent runs for (default: today, UTC).
                         */
                        as_of?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentEventQueued"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRoutingDecision: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The routing decision (rtd_…). An id that names nothing of your tenant, whatever its shape, is 404 agent_routing_decision_not_found; over 255 characters is 400 request_params_invalid. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentRoutingDecision"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAgentRuns: {
        parameters: {
            query?: {
                agent_id?: string;
                status?: "proposal_created" | "no_proposal" | "no_match" | "unscoped";
                category?: "business" | "consumer" | "agnostic";
                /** @description Page size, 1 to 100 (default 50). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentRunList"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgentRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The run (arn_…). An id that names nothing of your tenant, whatever its shape, is 404 agent_run_not_found; over 255 characters is 400 request_params_invalid. */
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentRunDetail"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    explainAgentRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The run (arn_…). An id that names nothing of your tenant, whatever its shape, is 404 agent_run_not_found; over 255 characters is 400 request_params_invalid. */
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentRunWhy"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgentRunEvidence: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The run (arn_…). An id that names nothing of your tenant, whatever its shape, is 404 agent_run_not_found; over 255 characters is 400 request_params_invalid. */
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentRunEvidence"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgentRunGateTrace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The run (arn_…). An id that names nothing of your tenant, whatever its shape, is 404 agent_run_not_found; over 255 characters is 400 request_params_invalid. */
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentRunGateTrace"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgentRunProof: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The run (arn_…). An id that names nothing of your tenant, whatever its shape, is 404 agent_run_not_found; over 255 characters is 400 request_params_invalid. */
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The proof of one action: every field is derived from, or bound by a digest in, the audit events it carries (docs/proofs.md). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Proof"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent (its catalog key). An id that names nothing of your tenant, whatever its shape, is 404 agent_not_found; over 255 characters is 400 request_params_invalid. */
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentDetail"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAgentActions: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 100 (default 50). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The agent (its catalog key). An id that names nothing of your tenant, whatever its shape, is 404 agent_not_found; over 255 characters is 400 request_params_invalid. */
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentActions"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    registerAgent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A first-party agent's key is 409 agent_already_registered; an id beginning svt_ (service tokens' ids) is 400 validation_failed. */
                    agent_id: string;
                    /**
                     * @description reader: ledger:read, wiki:read; contributor: adds raw:write; proposer: adds payment_intent:propose.
                     * @enum {string}
                     */
                    role: "reader" | "contributor" | "proposer";
                    display_name: string;
                    /** @description Must equal the role's scope hash when given. */
                    scope_hash?: string;
                    onchain_address?: string;
                    /** @description The AgentRegistry transaction that registered the agent, checked at activation. */
                    registered_tx?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegisteredAgent"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    haltAgentCategory: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    category: "business" | "consumer" | "agnostic";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentCategoryHalt"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    haltAgent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The agent (its catalog key). An id that names nothing of your tenant, whatever its shape, is 404 agent_not_found; over 255 characters is 400 request_params_invalid. */
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentHalt"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    restoreAgent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The agent (its catalog key). An id that names nothing of your tenant, whatever its shape, is 404 agent_not_found; over 255 characters is 400 request_params_invalid. */
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentStateView"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    releaseAgentContributionHold: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The agent (its catalog key). An id that names nothing of your tenant, whatever its shape, is 404 agent_not_found; over 255 characters is 400 request_params_invalid. */
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContributionHoldRelease"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listProposals: {
        parameters: {
            query?: {
                /** @description A public proposal type (spec, "Proposal"). */
                type?: "vendor_risk" | "payment" | "collections" | "treasury" | "cash_forecast" | "dispute" | "compliance" | "revenue_intel" | "reconciliation" | "subscription" | "fraud_anomaly" | "personal_budget" | "financial_health" | "purchase_advisor" | "tax_prep" | "travel_finance" | "bill_management" | "debt_optimization" | "savings";
                /** @description The proposal's status (spec, "Proposal"). */
                status?: "proposed" | "pending" | "pending_approval" | "awaiting_second_approval" | "approved" | "acknowledged" | "reconciling" | "paused" | "dispatching" | "rejected" | "executed" | "failed" | "cancelled" | "undone" | "unknown";
                risk_band?: "low" | "standard" | "elevated" | "high";
                /** @description Only proposals whose confidence is at least this (0..1). */
                min_confidence?: number;
                /** @description Page size, 1 to 100 (default 50). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProposalList"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProposal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The proposal (prp_…). An id that names nothing of your tenant, whatever its shape, is 404 execution_proposal_not_found; over 255 characters is 400 request_params_invalid. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Proposal"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    decideProposal: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The proposal (prp_…). An id that names nothing of your tenant, whatever its shape, is 404 execution_proposal_not_found; over 255 characters is 400 request_params_invalid. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    decision: "approve" | "reject" | "acknowledge" | "undo";
                    /** @description Why (at most 500 characters); stored with a rejection. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProposalDecisionResult"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resolveEvidence: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Evidence refs (kind and ref), at most 50. A ref never makes the request fail: each is answered in results. */
                    refs: {
                        kind: string;
                        ref: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvidenceResolveResult"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listGovernanceAgents: {
        parameters: {
            query: {
                /** @description Tenant id (UUID). */
                tenant_id: string;
                /** @description pending is pending_onchain. */
                status?: "active" | "pending" | "quarantined" | "revoked";
                /** @description Who registered the agent (the registering user's id); another owner answers an empty list. */
                owner?: string;
                /** @description Page size, 1 to 500 (default 100). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceAgentList"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getGovernanceAgent: {
        parameters: {
            query: {
                /** @description Tenant id (UUID). */
                tenant_id: string;
            };
            header?: never;
            path: {
                /** @description The registered agent. An id that names nothing of your tenant, whatever its shape, is 404 agent_not_found; over 255 characters is 400 request_params_invalid. */
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceAgentDetail"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    transitionGovernanceAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The registered agent. An id that names nothing of your tenant, whatever its shape, is 404 agent_not_found; over 255 characters is 400 request_params_invalid. */
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Tenant id (UUID). */
                    tenant_id: string;
                    /** @enum {string} */
                    transition: "pause" | "resume" | "revoke";
                    /** @description Why; audited as its SHA-256 only. */
                    reason: string;
                    /** @description Who at the platform made the change (audited as a platform actor). */
                    actor: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceAgent"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getGovernanceReport: {
        parameters: {
            query: {
                /** @description Tenant id (UUID). */
                tenant_id: string;
                /** @description Inclusive. */
                period_start: string;
                /** @description Exclusive; at most 366 days after period_start. */
                period_end: string;
                /** @description A registered agent's id in the tenant. */
                agent_id?: string;
                /** @description json (default) or csv (the events, one per line). */
                format?: "json" | "csv";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceReport"];
                    "text/csv": components["schemas"]["GovernanceReport"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createGovernanceReportSnapshot: {
        parameters: {
            query: {
                /** @description Tenant id (UUID). */
                tenant_id: string;
                /** @description Inclusive. */
                period_start: string;
                /** @description Exclusive; at most 366 days after period_start. */
                period_end: string;
                /** @description A registered agent's id in the tenant. */
                agent_id?: string;
                /** @description json only (the default): a snapshot freezes the JSON report; csv is 400. */
                format?: "json";
            };
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Who at the platform froze the report. */
                    created_by: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceSnapshotCreated"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getGovernanceReportSnapshot: {
        parameters: {
            query: {
                /** @description Tenant id (UUID). */
                tenant_id: string;
            };
            header?: never;
            path: {
                /** @description The report snapshot (grpt_…). An id that names nothing of your tenant, whatever its shape, is 404 governance_report_not_found; over 255 characters is 400 request_params_invalid. */
                report_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceReportSnapshot"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    askWikiQuestion: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The question, 1 to 2000 characters. */
                    question: string;
                    /**
                     * Format: date-time
                     * @description Read the Ledger as it was recorded at this instant, and resolve relative periods ("last month") against its day (UTC). Default: now.
                     */
                    as_of?: string;
                    /** @description How deep evidence_path goes (default 3, at most 5): 1 the Ledger records, 2 their parsed rows, 3 the raw artifacts of those rows, 4 the accounts and counterparties the records name, 5 those records' parsed rows. */
                    max_evidence_depth?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WikiAnswer"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSuggestedQuestions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuggestedQuestions"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAssistantQuestions: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 500 (default 50). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuestionFeed"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWikiEntity: {
        parameters: {
            query?: {
                /** @description System time: the entity as the Wiki knew it at this instant — the Ledger version and the annotations recorded by then. Omitted: now. */
                as_of?: string;
            };
            header?: never;
            path: {
                /** @description A Ledger record id (acc_, bal_, cpy_, txn_, inv_, obl_ or rcm_…). An id that names nothing of your tenant, whatever its shape, is 404 wiki_entity_not_found; over 255 characters is 400 request_params_invalid. */
                entity_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WikiEntity"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWikiEntityEvidence: {
        parameters: {
            query?: {
                /** @description System time: the entity as the Wiki knew it at this instant — the Ledger version and the annotations recorded by then. Omitted: now. */
                as_of?: string;
            };
            header?: never;
            path: {
                /** @description A Ledger record id (acc_, bal_, cpy_, txn_, inv_, obl_ or rcm_…). An id that names nothing of your tenant, whatever its shape, is 404 wiki_entity_not_found; over 255 characters is 400 request_params_invalid. */
                entity_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entity_id: string;
                        /**
                         * @description The kind of Ledger record (its id prefix: acc_, bal_, cpy_, txn_, inv_, obl_, rcm_).
                         * @enum {string}
                         */
                        kind: "account" | "balance" | "counterparty" | "transaction" | "invoice" | "obligation" | "reconciliation_match";
                        as_of: string | null;
                        ledger_version: {
                            version_id: string;
                            version: number;
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp, UTC.
                             */
                            recorded_at: string;
                            superseded_at: string | null;
                            /** @enum {string} */
                            provenance: "extracted" | "inferred" | "ambiguous" | "human_confirmed" | "agent_contributed";
                            confidence: number;
                        };
                        /** @description The chain as refs, record first: `<kind>:<id>`, then each `parsed_row:rpr_…` followed by its `raw_artifact:raw_…`. */
                        evidence_path: string[];
                        /** @description The parsed rows the record cites, in its order, at most 100. */
                        parsed_rows: {
                            /** @description The parsed row (rpr_…). */
                            id: string;
                            parser: string;
                            /** @description How confident its extraction was. */
                            confidence: number;
                            raw_artifact: {
                                /** @description The Raw artifact (raw_…) it was read from. */
                                id: string;
                                source_type: string;
                                sha256: string;
                                mime_type: string;
                                /** @enum {string} */
                                status: "stored" | "tombstoned";
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 timestamp, UTC.
                                 */
                                received_at: string;
                            } | null;
                        }[];
                        /** @description Cited parsed rows that no longer resolve in Raw. */
                        unresolved_ids: string[];
                        /** @description True when the record cites more than 100 parsed rows. */
                        truncated: boolean;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWikiEntityHistory: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 500 (default 100). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description A Ledger record id (acc_, bal_, cpy_, txn_, inv_, obl_ or rcm_…). An id that names nothing of your tenant, whatever its shape, is 404 wiki_entity_not_found; over 255 characters is 400 request_params_invalid. */
                entity_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entity_id: string;
                        /**
                         * @description The kind of Ledger record (its id prefix: acc_, bal_, cpy_, txn_, inv_, obl_, rcm_).
                         * @enum {string}
                         */
                        kind: "account" | "balance" | "counterparty" | "transaction" | "invoice" | "obligation" | "reconciliation_match";
                        /** @description Oldest first: Ledger versions and annotations interleaved by recorded time. */
                        versions: {
                            wiki_version: number;
                            /** @enum {string} */
                            type: "ledger_version" | "annotation";
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp, UTC.
                             */
                            recorded_at: string;
                            /** @enum {string} */
                            provenance: "extracted" | "inferred" | "ambiguous" | "human_confirmed" | "agent_contributed";
                            ledger_version: {
                                version_id: string;
                                version: number;
                                superseded_at: string | null;
                                confidence: number;
                                source_ids: string[];
                                evidence_ids: string[];
                                record: components["schemas"]["Account"] | components["schemas"]["Balance"] | components["schemas"]["Counterparty"] | components["schemas"]["Transaction"] | components["schemas"]["Invoice"] | components["schemas"]["Obligation"] | components["schemas"]["ReconciliationMatch"];
                            } | null;
                            annotation: {
                                /** @description wan_… */
                                annotation_id: string;
                                /** @enum {string} */
                                target: "entity" | "relation";
                                /** @description The entity or relation annotated. */
                                subject_id: string;
                                /**
                                 * @description The kind of Ledger record (its id prefix: acc_, bal_, cpy_, txn_, inv_, obl_, rcm_).
                                 * @enum {string}
                                 */
                                kind: "account" | "balance" | "counterparty" | "transaction" | "invoice" | "obligation" | "reconciliation_match";
                                /** @description The subject's annotation number (1, 2, 3 …). */
                                version: number;
                                note: string | null;
                                labels: string[] | null;
                                corrections: {
                                    [key: string]: (string | number | boolean) | null;
                                } | null;
                                relation_status: ("confirmed" | "disputed") | null;
                                /** @enum {string} */
                                provenance: "human_confirmed";
                                actor: {
                                    type: string;
                                    id: string;
                                };
                                /** @description The Ledger version that was current when the annotation was made. */
                                basis_version_id: string;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 timestamp, UTC.
                                 */
                                recorded_at: string;
                            } | null;
                        }[];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    annotateWikiEntity: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A Ledger record id (acc_, bal_, cpy_, txn_, inv_, obl_ or rcm_…); 404 wiki_entity_not_found when it names nothing of your tenant. */
                    entity_id: string;
                    /** @description Free text, 1 to 4,000 characters, kept verbatim by the Wiki (the audit event holds its hash). */
                    note?: string;
                    /** @description Replace the subject's labels (lower-case, 1 to 64 of a-z 0-9 _ . : -; at most 20; [] clears them). */
                    labels?: string[];
                    /** @description Field → the value a person asserts it has (a field of the kind's record, not its version or provenance fields; otherwise 400 validation_failed); null withdraws an earlier assertion. A Wiki-level assertion: the Ledger record is never changed. */
                    corrections?: {
                        [key: string]: (string | number | boolean) | null;
                    };
                } | {
                    /** @description A reconciliation match id (rcm_…); 404 wiki_entity_not_found when it names nothing of your tenant. */
                    relation_id: string;
                    /**
                     * @description A person confirms or disputes the match.
                     * @enum {string}
                     */
                    status: "confirmed" | "disputed";
                    /** @description Free text, 1 to 4,000 characters, kept verbatim by the Wiki (the audit event holds its hash). */
                    note?: string;
                    /** @description Replace the subject's labels (lower-case, 1 to 64 of a-z 0-9 _ . : -; at most 20; [] clears them). */
                    labels?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        annotation: {
                            /** @description wan_… */
                            annotation_id: string;
                            /** @enum {string} */
                            target: "entity" | "relation";
                            /** @description The entity or relation annotated. */
                            subject_id: string;
                            /**
                             * @description The kind of Ledger record (its id prefix: acc_, bal_, cpy_, txn_, inv_, obl_, rcm_).
                             * @enum {string}
                             */
                            kind: "account" | "balance" | "counterparty" | "transaction" | "invoice" | "obligation" | "reconciliation_match";
                            /** @description The subject's annotation number (1, 2, 3 …). */
                            version: number;
                            note: string | null;
                            labels: string[] | null;
                            corrections: {
                                [key: string]: (string | number | boolean) | null;
                            } | null;
                            relation_status: ("confirmed" | "disputed") | null;
                            /** @enum {string} */
                            provenance: "human_confirmed";
                            actor: {
                                type: string;
                                id: string;
                            };
                            /** @description The Ledger version that was current when the annotation was made. */
                            basis_version_id: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 timestamp, UTC.
                             */
                            recorded_at: string;
                        };
                        entity: components["schemas"]["WikiEntity"];
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWikiSchema: {
        parameters: {
            query?: {
                /** @description The kind of Ledger record (its id prefix: acc_, bal_, cpy_, txn_, inv_, obl_, rcm_). */
                kind?: "account" | "balance" | "counterparty" | "transaction" | "invoice" | "obligation" | "reconciliation_match";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Kind → the JSON Schema (draft 2020-12) of a Wiki entity of that kind, as GET /v1/wiki/entity/{entity_id} answers it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    searchWiki: {
        parameters: {
            query?: {
                /** @description policy or agent (both when omitted). The Ledger kinds (account, counterparty, transaction, obligation) and any other value are 400 request_params_invalid: the Ledger is read through its own routes. */
                kind?: "policy" | "agent";
                /** @description Full text (PostgreSQL websearch syntax: words, "phrases", or, -not), English stemming; only matching documents are returned. */
                q?: string;
                /** @description Similarity: documents ranked by how close they are to this text — cosine similarity of embeddings when an embedding model is configured, otherwise pg_trgm word similarity (at least 0.3). semantic_method says which. */
                semantic?: string;
                /** @description Documents changed at or after this instant (catalog agents, which have no time, are left out). */
                since?: string;
                /** @description Documents changed at or before this instant. */
                until?: string;
                /** @description Page size, 1 to 500 (default 50). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        results: {
                            /** @enum {string} */
                            kind: "policy" | "agent";
                            /** @description pol_… for a policy version; the agent key of a catalog agent, or the id of a registered agent. */
                            id: string;
                            title: string;
                            /** @description The start of the document's text. */
                            snippet: string;
                            score: number | null;
                            updated_at: string | null;
                        }[];
                        /** @description Whether q filtered the documents (PostgreSQL full-text search). */
                        full_text: boolean;
                        semantic_method: ("embedding" | "trigram") | null;
                        embedding_model: string | null;
                        next_cursor: string | null;
                    };
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMemoryPages: {
        parameters: {
            query?: {
                /** @description account, counterparty, obligation, invoice, agent, policy, monthly_summary or cash_flow. */
                page_type?: "account" | "counterparty" | "obligation" | "invoice" | "agent" | "policy" | "monthly_summary" | "cash_flow";
                /** @description Page size, 1 to 500 (default 50). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryPageList"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMemoryPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A page id (mpg_…) or its slug with the slash percent-encoded (counterparty%2Fcpy_…). Anything naming no page of your tenant, whatever its shape, is 404 memory_page_not_found; over 255 characters is 400 request_params_invalid. */
                slug_or_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A memory page with its content. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryPage"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMemoryPageBySlugPath: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Here the slug's first segment (account, counterparty, obligation, invoice, agent, policy, monthly-summary, cash-flow); with slug_rest it names the page. */
                slug_or_id: string;
                /** @description The slug's second segment. A slug naming no page of your tenant is 404 memory_page_not_found. */
                slug_rest: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A memory page with its content. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryPage"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    searchMemoryPages: {
        parameters: {
            query: {
                /** @description Full text over title and content (PostgreSQL websearch syntax: words, "a phrase", -not, or). */
                q: string;
                /** @description account, counterparty, obligation, invoice, agent, policy, monthly_summary or cash_flow. */
                page_type?: "account" | "counterparty" | "obligation" | "invoice" | "agent" | "policy" | "monthly_summary" | "cash_flow";
                /** @description Page size, 1 to 500 (default 50). */
                limit?: number;
                /** @description Opaque cursor from the previous page's next_cursor. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryPageList"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    regenerateMemoryPages: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description Optional: which page types to regenerate (all when the body is empty or absent). */
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Regenerate only these types; every type when absent. */
                    page_types?: ("account" | "counterparty" | "obligation" | "invoice" | "agent" | "policy" | "monthly_summary" | "cash_flow")[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryRegeneration"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    promoteAgent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The agent id (today a service token id, svt_…). An id that names nothing of your tenant, whatever its shape, is 404 agent_not_found; over 255 characters is 400 request_params_invalid. */
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The caps' currency: only payments in it can go live. */
                    currency: string;
                    /** @description The most one payment may be, in the currency. */
                    per_payment_cap: string;
                    /** @description The most the agent's live payments may take in any 24 hours (at least the per-payment cap). */
                    per_day_cap: string;
                    /** @description The rails the agent may use. */
                    rails: ("bank_ach" | "onchain_base" | "erp_writeback" | "x402_base" | "escrow_base")[];
                    counterparty_ids?: string[] | null;
                    /**
                     * Format: date-time
                     * @description When the promotion ends on its own (within 366 days).
                     */
                    expires_at: string;
                    /** @description Why (audited as a digest). */
                    reason: string;
                    /** @description What the agent's shadow scorecard must meet for the promotion to be granted. */
                    thresholds: {
                        /** @description At least this many shadow runs. */
                        min_shadow_runs: number;
                        /** @description At least this share of the agent's decided proposals approved (0 to 1). */
                        min_approval_rate: number;
                        /** @description At most this share of its shadow runs failing the gate (0 to 1). */
                        max_gate_failure_rate: number;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentPromotion"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    demoteAgent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The agent id (today a service token id, svt_…). An id that names nothing of your tenant, whatever its shape, is 404 agent_not_found; over 255 characters is 400 request_params_invalid. */
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Why (audited as a digest). */
                    reason: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentPromotion"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgentPromotion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The agent id (today a service token id, svt_…). An id that names nothing of your tenant, whatever its shape, is 404 agent_not_found; over 255 characters is 400 request_params_invalid. */
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentPromotionStanding"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveAchRailWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description t=<unix seconds>,v1=<hex HMAC-SHA-256(secret, "<t>." + raw body)>; the timestamp must be within 300 s of ours. */
                "x-provider-signature"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The provider's event id; the same on every redelivery. */
                    id: string;
                    /** @enum {string} */
                    type: "transfer.settled" | "transfer.returned";
                    /** @description The provider's transfer id (the execution's rail_reference). */
                    transfer_id: string;
                    /** @description The key the transfer was created with: the outbox row's. */
                    idempotency_key: string;
                    /** @description What Steward attached to the transfer, echoed by the provider: the tenant and the intent. */
                    metadata: {
                        /** Format: uuid */
                        tenant_id: string;
                        payment_intent_id: string;
                    };
                    amount: string;
                    currency: string;
                    /** @description NACHA return code of a returned transfer (R and two digits): required on transfer.returned (400 request_body_invalid without it); ignored, and null from the sandbox, on transfer.settled. */
                    return_code: string | null;
                    /** @description When the transfer settled; null for one returned before settlement. */
                    settled_at: string | null;
                    /** Format: date-time */
                    occurred_at: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RailWebhookAccepted"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    registerOnchainAccount: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional, 1 to 255 visible ASCII characters. The same key with the same request replays the first outcome (header Idempotent-Replayed: true) without running the command again; with a different request it is 409 idempotency_key_reused. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description A Ledger USD account, the smart account that pays for it and the USDC it pays in. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description The Ledger account the smart account pays for (an intent's source_account_id); it must be the tenant's (404 ledger_account_not_found) and in USD (400 validation_failed). */
                    account_id: string;
                    /** @description The SmartAccount contract (contracts/SmartAccount.sol) holding the USDC. 0x and 40 hex digits, any case (mixed case must be a valid EIP-55 checksum); never the zero address. */
                    smart_account: string;
                    /** @description The USDC contract the account pays in: it must answer decimals() = 6 on the rail's chain. 0x and 40 hex digits, any case (mixed case must be a valid EIP-55 checksum); never the zero address. */
                    token: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OnchainAccount"];
                };
            };
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OnchainAccount"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOnchainAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The Ledger account id. An id that names nothing of your tenant, whatever its shape, is 404 onchain_account_not_found; over 255 characters is 400 request_params_invalid. */
                account_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OnchainAccount"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    callAgentProtocol: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    jsonrpc: "2.0";
                    /** @description The request id, echoed in the response; absent: a notification (answered 202, no body). */
                    id?: string | number;
                    /**
                     * @description initialize, ping, tools/list, tools/call, resources/list, resources/templates/list, resources/read, prompts/list or prompts/get (another method is -32601).
                     * @example tools/call
                     */
                    method: string;
                    params?: {
                        /** @description tools/call and prompts/get: the tool or prompt name. */
                        name?: string;
                        /** @description tools/call: the tool's arguments (its JSON Schema in tools/list); prompts/get: string arguments. */
                        arguments?: {
                            [key: string]: unknown;
                        };
                        /** @description resources/read: a svc:// URI of a resource template. */
                        uri?: string;
                    } & {
                        [key: string]: unknown;
                    };
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Exactly one of result and error. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: string | number | null;
                        /** @description The method's result (tools/call: content and structuredContent, the REST twin's response body). */
                        result?: {
                            [key: string]: unknown;
                        };
                        error?: {
                            /** @description One of -32001, -32002, -32003, -32004, -32005, -32600, -32601, -32602, -32603, -32700. */
                            code: number;
                            message: string;
                            /** @description error_code: the catalogue code; code: the gate_* check for -32004; issues for invalid arguments. */
                            data?: unknown;
                        };
                    };
                };
            };
            /** @description A notification (no id) was accepted; the response has no body. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description The flat variant of the error envelope, for refusals before dispatch (spec, "Errors"). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentProtocolRefusal"];
                };
            };
            /** @description The error envelope of every non-2xx response. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
