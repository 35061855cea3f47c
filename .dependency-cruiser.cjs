/**
 * The import rules of docs/architecture.md, checked by `npm run lint:boundaries` (scripts/lint-boundaries.mjs)
 * and in CI. Information flows up, control flows down:
 *   kernel    imports nothing of ours;
 *   platform  imports only kernel;
 *   modules   import kernel, platform and other modules' index.ts only;
 *   domain/   imports only kernel and its own module's domain/, and no database or HTTP library;
 *   main      (process entries and composition) imports a module only through its index.ts, or its
 *             *.tables.ts for the tenant-deletion order; nothing imports main;
 *   cli       (the steward command-line client) talks to the server over HTTP only: it imports nothing
 *             of the server's code, and no server code imports it;
 *   sdk/      (the generated API client) and the service never import each other;
 *   and there are no import cycles.
 * Paths are relative to the directory cruised (the repository, or a test's fixture tree).
 */
/** Libraries of I/O that pure code must not reach for. */
const ioPackages = '(drizzle-orm|fastify|@fastify|pg|pg-boss|pg-copy-streams|@electric-sql|ioredis|nodemailer|undici)'
/** Resolved into node_modules, or (where it cannot resolve) the bare package name. */
const ioLibraries = `((^|/)node_modules/|^)${ioPackages}(/|$)`

module.exports = {
  forbidden: [
    {
      name: 'kernel-imports-nothing-of-ours',
      comment: 'kernel/ is pure shared code: it imports no platform, module or entry code.',
      severity: 'error',
      from: { path: '^src/kernel/' },
      to: { path: '^src/(platform|modules|main)/' },
    },
    {
      name: 'platform-imports-only-kernel',
      comment: 'platform/ is the machinery every module uses; it knows no module (modules plug in through interfaces it defines).',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/(modules|main)/' },
    },
    {
      name: 'modules-meet-at-index',
      comment: "A module reads another only through that module's index.ts (its public face).",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/', pathNot: '\\.tables\\.ts$' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'tables-reference-tables-only',
      comment: "A module's tables may name another module's tables for a foreign key, and nothing else of it.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/[^/]+\\.tables\\.ts$' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/[^/]+\\.tables\\.ts$'] },
    },
    {
      name: 'main-meets-modules-at-index',
      comment: "Composition and the process entries use a module only through its index.ts (its public face), and its tables file for the tenant-deletion plan.",
      severity: 'error',
      from: { path: '^src/main/' },
      to: { path: '^src/modules/', pathNot: ['^src/modules/[^/]+/index\\.ts$', '^src/modules/[^/]+/[^/]+\\.tables\\.ts$'] },
    },
    {
      name: 'nothing-imports-main',
      comment: 'main/ wires everything together; kernel, platform and modules never depend on it.',
      severity: 'error',
      from: { path: '^src/(kernel|platform|modules)/' },
      to: { path: '^src/main/' },
    },
    {
      name: 'cli-is-a-client',
      comment: 'cli/ is a client of the HTTP API: it imports nothing of kernel, platform, modules or main (so it can move to its own package), and they import nothing of it.',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/(kernel|platform|modules|main)/' },
    },
    {
      name: 'nothing-imports-cli',
      comment: 'No server code depends on the command-line client.',
      severity: 'error',
      from: { path: '^src/(kernel|platform|modules|main)/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'domain-is-pure',
      comment: "domain/ imports only kernel/ and its own module's domain/ (no stores, services, platform or other modules).",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/domain/' },
      to: { path: '^src/', pathNot: ['^src/kernel/', '^src/modules/$1/domain/'] },
    },
    {
      name: 'pure-code-does-no-io',
      comment: 'kernel/ and domain/ reach for no database, HTTP, queue or mail library.',
      severity: 'error',
      from: { path: '^src/(kernel/|modules/[^/]+/domain/)' },
      to: { path: ioLibraries },
    },
    {
      name: 'service-does-not-import-the-sdk',
      comment: 'sdk/ is the generated client for callers of the API; the service never depends on it.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^sdk/' },
    },
    {
      name: 'sdk-imports-nothing-of-the-service',
      comment: 'sdk/ stands alone (openapi-fetch and its generated types): it imports no service, test or script code.',
      severity: 'error',
      from: { path: '^sdk/' },
      to: { path: '^(src|test|scripts)/' },
    },
    {
      name: 'console-uses-only-the-sdk',
      comment: 'console/ (the web console) reaches Steward through the public API only: it imports sdk/, never service, test or script code.',
      severity: 'error',
      from: { path: '^console/' },
      to: { path: '^(src|test|scripts)/' },
    },
    {
      name: 'no-cycles',
      comment: 'Import cycles make initialization order matter and boundaries meaningless.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$|\\.testing\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
}
