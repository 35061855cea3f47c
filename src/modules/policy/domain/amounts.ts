/**
 * The money of an action a caller sends to evaluate or simulate, checked before the policy sees it: an
 * amount in a known currency with more fraction digits than the currency has is refused (400), because
 * the evaluator treats such an amount as failing every money check, and a what-if answer that skipped a
 * rule for a typo (USD 50000.001) would read as the policy allowing it. A currency the table does not
 * know is left to the evaluator (a rule in another currency never holds for it). Pure.
 */
import { currencyMinorUnits } from '../../../kernel/currencies.ts'

export interface AmountProblem {
  readonly path: string
  readonly message: string
}

type MoneyField = { readonly currency: string; readonly value: string } | null | undefined

export function actionAmountProblems(action: { readonly amount?: MoneyField; readonly spend_in_window?: MoneyField }): AmountProblem[] {
  const problems: AmountProblem[] = []
  for (const field of ['amount', 'spend_in_window'] as const) {
    const money = action[field]
    if (money === null || money === undefined) continue
    const scale = currencyMinorUnits(money.currency)
    const fraction = money.value.split('.')[1] ?? ''
    if (scale !== undefined && fraction.length > scale) {
      problems.push({ path: `/action/${field}/value`, message: `${money.currency} has ${scale} fraction digit${scale === 1 ? '' : 's'}; ${money.value} has ${fraction.length}.` })
    }
  }
  return problems
}
