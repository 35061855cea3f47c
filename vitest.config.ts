import { defineConfig } from 'vitest/config'

// Integration tests build the app and `inject` against a real SQL engine: in-memory PGlite by default,
// PostgreSQL when TEST_DATABASE_URL is set (a fresh database per run, made by the global setup).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default', ['json', { outputFile: '.test-results/vitest.json' }]],
  },
})
