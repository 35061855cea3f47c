import { defineConfig } from 'drizzle-kit'

// Migrations are generated offline from the schema; no database connection is needed.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/platform/db/schema.ts',
  out: './src/platform/db/migrations',
  casing: 'snake_case',
})
