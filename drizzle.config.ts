import { defineConfig } from 'drizzle-kit'

// Migrations are generated offline from the schema; no database connection is needed.
export default defineConfig({
  dialect: 'postgresql',
  // Every module's tables and the platform's own (outbox, idempotency): the one schema of both engines.
  schema: ['./src/platform/**/*.tables.ts', './src/modules/*/*.tables.ts'],
  out: './src/platform/db/migrations',
  casing: 'snake_case',
})
