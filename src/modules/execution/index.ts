/**
 * The execution module as the composition root will see it (issue 17, in progress): the worker that takes
 * the gate's outbox rows to the rails. Built so far: the execution rules (domain/executions.ts) and the
 * rail interface with its fail-closed stand-in (rails.ts); the worker, its tables and the rail adapters
 * come next (docs/execution.md).
 */
export { canMoveExecution, decideAfter, defaultRetrySettings, isSettled, retryDelaySeconds } from './domain/executions.ts'
export type { Decision, ExecutionStatus, RailAnswer, RetrySettings } from './domain/executions.ts'
export { failClosedRail, railRegistry, railUnavailableCode } from './rails.ts'
export type { RailAdapter, RailRegistry, RailRequest } from './rails.ts'
