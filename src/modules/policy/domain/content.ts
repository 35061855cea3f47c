/**
 * The Policy language as a TypeBox schema (served as JSON Schema and in OpenAPI) and the validation of
 * a content document: the schema first, then the checks a schema cannot express (unique rule ids, lists
 * that exist, amounts valid for their currency, an autonomous cap only on an `auto` rule, `approvals`
 * only on a `confirm` rule, total size).
 *
 * The schema is strict everywhere (`additionalProperties: false`): a financial policy refuses a key it
 * does not understand (`amount.lt`, `counterparty.notin`) instead of ignoring it, since an ignored
 * condition silently widens a rule.
 *
 * Limits (also written in the schema descriptions, so a client sees them):
 *   rulesMax 500, listsMax 100, listEntriesMax 10,000 per list and listEntriesTotalMax 100,000 across
 *   lists, idCharsMax 128 (rule, counterparty, agent ids and condition values), nameCharsMax 64 (list
 *   names, approver labels, action types), conditionValuesMax 100 values per equality condition,
 *   agentsMax 500 agents in agent_actions with agentActionTypesMax 100 types each, windowHoursMax 8,760
 *   (one year), txCountMax 1,000,000,000, approvalsMax 5 distinct approvers per confirm rule. An autonomous
 *   cap is one per rule, so rulesMax bounds them.
 */
import Type, { type Static, type TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import { currencyCodePattern as currencyPattern } from '../../../kernel/currencies.ts'
import { moneyProblem, moneyValueCharsMax, moneyValuePattern } from '../../../kernel/money.ts'
import { actionKinds, riskLevels, type PolicyContent } from './types.ts'

export const rulesMax = 500
export const listsMax = 100
export const listEntriesMax = 10_000
export const listEntriesTotalMax = 100_000
export const idCharsMax = 128
export const nameCharsMax = 64
export const conditionValuesMax = 100
export const agentsMax = 500
export const agentActionTypesMax = 100
export const windowHoursMax = 8_760
export const txCountMax = 1_000_000_000
/** The most distinct approvers a `confirm` rule may require (`approvals`). */
export const approvalsMax = 5
/** Validation stops collecting issues here: a document with more problems needs fixing from the top anyway. */
export const issuesMax = 100

/** Rule ids, agent ids (as agent_actions keys): start with a letter or digit, then letters, digits, `_ . : -`. */
export const idPattern = `^[A-Za-z0-9][A-Za-z0-9_.:-]{0,${idCharsMax - 1}}$`
/** List names, approver labels and action types. */
export const namePattern = `^[A-Za-z0-9][A-Za-z0-9_.:-]{0,${nameCharsMax - 1}}$`

const Currency = Type.String({
  pattern: currencyPattern,
  description: 'ISO 4217 code (USD, JPY, KWD) or a token symbol (USDC, USDT, ETH): capital letters and digits, 2 to 10 characters.',
})
const MoneyValue = Type.String({
  pattern: moneyValuePattern,
  maxLength: moneyValueCharsMax,
  description:
    'Non-negative decimal string (never a JSON number), with at most as many fraction digits as the currency has ' +
    '(USD 2, JPY 0, KWD 3, USDC 6, USDT 6, ETH 18; unknown token symbols keep the digits as written). Compared exactly in minor units.',
})

/** An amount: currency and decimal string. Two amounts in different currencies are never compared. */
function MoneySchema(description: string) {
  return Type.Object({ currency: Currency, value: MoneyValue }, { additionalProperties: false, description })
}

const Id = (description: string) => Type.String({ minLength: 1, maxLength: idCharsMax, description })

/** A value, or a non-empty list of values any of which may match. */
function OneOrMany<Value extends TSchema>(value: Value, description: string) {
  return Type.Union([value, Type.Array(value, { minItems: 1, maxItems: conditionValuesMax, uniqueItems: true })], {
    description: `${description} One value, or a list of up to ${conditionValuesMax} distinct values any of which matches.`,
  })
}

const ListName = (description: string) => Type.String({ pattern: namePattern, description })
const Score = (description: string) => Type.Number({ minimum: 0, maximum: 1, description })
const RiskLevel = Type.Enum(riskLevels, { description: 'low < medium < high < sanctioned.' })

const ConditionsSchema = Type.Object(
  {
    'amount.lte': Type.Optional(MoneySchema('Holds when the action amount is at most this, in the same currency.')),
    'amount.gt': Type.Optional(MoneySchema('Holds when the action amount is more than this, in the same currency.')),
    'counterparty.in': Type.Optional(ListName('Holds when the action counterparty_id is in this list (a name in `lists`).')),
    'counterparty.not_in': Type.Optional(ListName('Holds when the action has a counterparty_id and it is not in this list (a name in `lists`).')),
    agent_id: Type.Optional(OneOrMany(Id('An agent id.'), 'Holds when the action agent_id equals it. Gate only.')),
    agent_role: Type.Optional(OneOrMany(Id('An agent role (collections, fraud_anomaly, …).'), 'Holds when the action agent_role equals it.')),
    tenant_category: Type.Optional(OneOrMany(Id('A tenant category.'), 'Holds when the action tenant_category equals it. Gate only.')),
    behavior_hash: Type.Optional(OneOrMany(Id('A behavior hash.'), 'Holds when the action behavior_hash equals it. Gate only.')),
    action_id: Type.Optional(OneOrMany(Id('An action id.'), 'Holds when the action action_id equals it. Gate only.')),
    action_type: Type.Optional(
      OneOrMany(Type.String({ pattern: namePattern, description: 'A PaymentIntent or agent action type.' }), 'Holds when the action action_type equals it. Gate only.'),
    ),
    risk_level: Type.Optional(OneOrMany(RiskLevel, 'Holds when the action risk_level equals it. Gate only.')),
    'risk_level.lte': Type.Optional(Type.Enum(riskLevels, { description: 'Holds when the action risk_level is at most this (low < medium < high < sanctioned). Gate only.' })),
    'confidence.gte': Type.Optional(Score('Holds when the action confidence (0 to 1) is at least this. Gate only.')),
    'confidence.lt': Type.Optional(Score('Holds when the action confidence (0 to 1) is below this. Gate only.')),
    'evidence_score.gte': Type.Optional(Score('Holds when the action evidence_score (0 to 1) is at least this. Gate only.')),
    'evidence_score.lt': Type.Optional(Score('Holds when the action evidence_score (0 to 1) is below this. Gate only.')),
    'spend_in_window.lte': Type.Optional(
      MoneySchema('Holds when the spend over the policy window, this action included, is at most this, in the same currency. Gate only.'),
    ),
    'tx_count_in_window.lte': Type.Optional(
      Type.Integer({ minimum: 0, maximum: txCountMax, description: 'Holds when the number of actions over the policy window, this one included, is at most this. Gate only.' }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Conditions, all of which must hold (AND); an empty object always holds. A key the caller did not populate does not hold. ' +
      'Unknown keys are refused. Gate-only keys are never populated by POST /evaluate.',
  },
)

const RuleSchema = Type.Object(
  {
    id: Type.String({ pattern: idPattern, description: `Unique within the policy; 1 to ${idCharsMax} characters: letters, digits, _ . : - (not starting with a symbol).` }),
    applies_to: Type.Array(Type.Enum([...actionKinds, 'any']), {
      minItems: 1,
      maxItems: actionKinds.length + 1,
      uniqueItems: true,
      description: 'The action kinds the rule applies to; `any` (valid only here) applies to every kind.',
    }),
    when: ConditionsSchema,
    require: Type.Optional(
      Type.String({ pattern: namePattern, description: 'Approver label for a `confirm` rule (default `signer`); meaningless on auto and reject.' }),
    ),
    approvals: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: approvalsMax,
        description:
          `Only on a \`confirm\` rule (else refused as approvals_on_non_confirm): how many distinct members must approve, 1 to ${approvalsMax} (default 1). ` +
          'The decision\'s required_approvers lists the approver label once per approval (require "finance", approvals 2 → ["finance", "finance"]).',
      }),
    ),
    execute: Type.Enum(['auto', 'confirm', 'reject'], {
      description:
        'auto → allow (the gate\'s hard human-approval floor still holds an allowed money action for approval unless the rule\'s autonomous_cap covers it), ' +
        'confirm → needs approval, reject.',
    }),
    autonomous_cap: Type.Optional(
      MoneySchema(
        'Only on an `auto` rule: the signed amount up to which the actions this rule allows may execute without a human. ' +
          'An action in another currency, or above it, is not covered: the gate\'s human-approval floor holds it for approval.',
      ),
    ),
  },
  { additionalProperties: false, description: 'A rule. Rules are matched first match in document order.' },
)

export const policyContentSchema = Type.Object(
  {
    version: Type.Number({ minimum: 0, description: 'The document\'s own version label (mandatory, numeric); covered by the content hash.' }),
    rules: Type.Array(RuleSchema, {
      maxItems: rulesMax,
      description: `Up to ${rulesMax} rules, matched first match in document order; an action no rule matches is rejected (deny by default).`,
    }),
    lists: Type.Optional(
      Type.Record(
        Type.String({ pattern: namePattern }),
        Type.Array(Id('A counterparty id.'), { maxItems: listEntriesMax, description: `Up to ${listEntriesMax} counterparty ids.` }),
        {
          maxProperties: listsMax,
          additionalProperties: false,
          description: `Named counterparty lists for counterparty.in / not_in: up to ${listsMax} lists, ${listEntriesTotalMax} ids in all.`,
        },
      ),
    ),
    agent_actions: Type.Optional(
      Type.Record(
        Type.String({ pattern: idPattern }),
        Type.Array(Type.String({ pattern: namePattern, description: 'An action type.' }), { maxItems: agentActionTypesMax, uniqueItems: true }),
        {
          maxProperties: agentsMax,
          additionalProperties: false,
          description:
            `Signed per-agent allowlist: agent id → the action types it may resolve (up to ${agentsMax} agents, ${agentActionTypesMax} types each). ` +
            'When present, an action carrying an agent_id is rejected unless its action_type is listed for that agent.',
        },
      ),
    ),
    window_hours: Type.Optional(
      Type.Integer({ minimum: 1, maximum: windowHoursMax, description: 'The window of spend_in_window and tx_count_in_window, in hours (default 24).' }),
    ),
  },
  {
    additionalProperties: false,
    // No $id: the routes publish the schema under the deployment's own URL and embed it in request
    // schemas, where a fixed $id would be registered twice.
    title: 'Steward policy content',
    description: 'A Steward policy document: signed by the tenant\'s signers (EIP-712 over its RFC 8785 content hash), evaluated first match, deny by default.',
  },
)

// The schema must describe exactly the PolicyContent type: each must be assignable to the other (up to
// readonly, which JSON Schema cannot say).
type DeepReadonly<Value> = Value extends readonly (infer Item)[]
  ? readonly DeepReadonly<Item>[]
  : Value extends object
    ? { readonly [Key in keyof Value]: DeepReadonly<Value[Key]> }
    : Value
type SchemaContent = DeepReadonly<Static<typeof policyContentSchema>>
const schemaMatchesType: [SchemaContent] extends [PolicyContent] ? ([PolicyContent] extends [SchemaContent] ? true : false) : false = true
void schemaMatchesType

const compiledContentSchema = Compile(policyContentSchema)

/** Issue codes: schema_invalid, unknown_key, duplicate_rule_id, missing_list, invalid_money, cap_on_non_auto, approvals_on_non_confirm, limit_exceeded. */
export type ValidationIssueCode =
  | 'schema_invalid'
  | 'unknown_key'
  | 'duplicate_rule_id'
  | 'missing_list'
  | 'invalid_money'
  | 'cap_on_non_auto'
  | 'approvals_on_non_confirm'
  | 'limit_exceeded'

export interface ValidationIssue {
  /** JSON Pointer (RFC 6901) into the content: `/rules/3/when/amount.lte/value`; `` for the document. */
  readonly path: string
  readonly message: string
  readonly code: ValidationIssueCode
}

export type PolicyValidation = { readonly ok: true; readonly content: PolicyContent } | { readonly ok: false; readonly issues: ValidationIssue[] }

/** One JSON Pointer reference token (RFC 6901: `~` → `~0`, `/` → `~1`). */
export function pointerToken(token: string | number): string {
  return String(token).replaceAll('~', '~0').replaceAll('/', '~1')
}

interface SchemaError {
  readonly keyword: string
  readonly schemaPath: string
  readonly instancePath: string
  readonly params: unknown
  readonly message: string
}

/**
 * TypeBox errors as issues. `boolean` errors (the `false` schema behind additionalProperties) repeat the
 * additionalProperties error; the branch errors under an `anyOf` are replaced by the anyOf error with the
 * schema's description, which says what the forms are.
 */
function schemaIssues(value: unknown): ValidationIssue[] {
  const errors = compiledContentSchema.Errors(value) as readonly SchemaError[]
  const anyOfPaths = errors.filter((error) => error.keyword === 'anyOf').map((error) => `${error.schemaPath}/anyOf/`)
  const issues: ValidationIssue[] = []
  for (const error of errors) {
    if (error.keyword === 'boolean') continue
    if (anyOfPaths.some((prefix) => error.schemaPath.startsWith(prefix))) continue
    const params = error.params as Record<string, unknown>
    if (error.keyword === 'additionalProperties' && Array.isArray(params.additionalProperties)) {
      for (const key of params.additionalProperties) {
        issues.push({ path: `${error.instancePath}/${pointerToken(String(key))}`, message: `unknown key ${JSON.stringify(String(key))}`, code: 'unknown_key' })
      }
      continue
    }
    let message = error.message
    if (error.keyword === 'anyOf') message = 'must be one value, or a non-empty list of distinct values, of the allowed form'
    else if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) message = `must be one of ${params.allowedValues.map((item) => JSON.stringify(item)).join(', ')}`
    else if (error.keyword === 'required' && Array.isArray(params.requiredProperties)) message = `missing required key ${JSON.stringify(String(params.requiredProperties[0]))}`
    issues.push({ path: error.instancePath, message, code: 'schema_invalid' })
  }
  if (issues.length === 0) issues.push({ path: '', message: 'does not match the policy content schema', code: 'schema_invalid' })
  return issues.slice(0, issuesMax)
}

/** The checks a schema cannot express, on a document that already matches the schema. */
function semanticIssues(content: PolicyContent): ValidationIssue[] {
  const issues: ValidationIssue[] = []
  const lists = content.lists ?? {}
  let listEntries = 0
  for (const entries of Object.values(lists)) listEntries += entries.length
  if (listEntries > listEntriesTotalMax) {
    issues.push({ path: '/lists', message: `lists hold ${listEntries} ids in all; at most ${listEntriesTotalMax}`, code: 'limit_exceeded' })
  }
  const seen = new Map<string, number>()
  content.rules.forEach((rule, index) => {
    const rulePath = `/rules/${index}`
    const first = seen.get(rule.id)
    if (first === undefined) seen.set(rule.id, index)
    else issues.push({ path: `${rulePath}/id`, message: `rule id ${JSON.stringify(rule.id)} is already used by /rules/${first}`, code: 'duplicate_rule_id' })
    for (const key of ['counterparty.in', 'counterparty.not_in'] as const) {
      const name = rule.when[key]
      if (name !== undefined && !Object.hasOwn(lists, name)) {
        issues.push({ path: `${rulePath}/when/${key}`, message: `list ${JSON.stringify(name)} is not defined in lists`, code: 'missing_list' })
      }
    }
    for (const key of ['amount.lte', 'amount.gt', 'spend_in_window.lte'] as const) {
      const money = rule.when[key]
      const problem = money === undefined ? undefined : moneyProblem(money)
      if (problem !== undefined) issues.push({ path: `${rulePath}/when/${key}/value`, message: problem, code: 'invalid_money' })
    }
    // Approvals on an auto or reject rule would read as a second approver the rule never asks for.
    if (rule.approvals !== undefined && rule.execute !== 'confirm') {
      issues.push({ path: `${rulePath}/approvals`, message: `approvals is allowed only on a confirm rule; this rule executes ${rule.execute}`, code: 'approvals_on_non_confirm' })
    }
    if (rule.autonomous_cap !== undefined) {
      // A cap on a confirm or reject rule would read as a promise of autonomy the rule never gives.
      if (rule.execute !== 'auto') {
        issues.push({ path: `${rulePath}/autonomous_cap`, message: `autonomous_cap is allowed only on an auto rule; this rule executes ${rule.execute}`, code: 'cap_on_non_auto' })
      }
      const problem = moneyProblem(rule.autonomous_cap)
      if (problem !== undefined) issues.push({ path: `${rulePath}/autonomous_cap/value`, message: problem, code: 'invalid_money' })
    }
  })
  return issues.slice(0, issuesMax)
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

/**
 * Validates a content document: schema, then semantics. On success the content is a deep-frozen copy,
 * so nothing can change it after it was validated (evaluation caches derived data per content object,
 * which is only invisible as long as the object never changes).
 */
export function validatePolicyContent(content: unknown): PolicyValidation {
  if (!compiledContentSchema.Check(content)) return { ok: false, issues: schemaIssues(content) }
  const issues = semanticIssues(content)
  if (issues.length > 0) return { ok: false, issues }
  return { ok: true, content: deepFreeze(structuredClone(content)) }
}
