/**
 * `payroll_provider_payload`: the body of a payroll-provider webhook, envelope
 * `steward.payroll_provider.v1` (docs/provider-payloads.md). Pay runs with their totals and the tax
 * remittances they create; never per-employee data (the envelope refuses it).
 *
 * Yields, per pay run that is not cancelled, one `obligation` of type `payroll` (the net pay, due when the
 * provider debits the tenant — `funding_date` — or on the pay date when the payload gives no funding
 * date) and one `obligation` of type `tax` per tax remittance (to the authority, due on its own date).
 * References are `<provider id>:<pay run id>` and `<provider id>:<tax id>`: the obligation key is
 * `<type>:<reference>`, so two payroll providers' ids never collide. Confidence 1.
 */
import Type from 'typebox'
import { canonicalDecimal } from '../../../../kernel/money.ts'
import {
  acceptsJsonOf,
  envelopeValidator,
  PayloadAmount,
  PayloadCurrency,
  PayloadDate,
  PayloadId,
  payloadItemsMax,
  PayloadProvider,
  readEnvelope,
  requireCalendarDate,
  requireUniqueIds,
} from './json-payload.ts'
import { recordOutput } from './output.ts'
import type { ObligationRecord } from '../../domain/extracted.ts'
import { ParseError, type Parser, type ParserInput, type ParserOutput } from '../parser.ts'

export const payrollProviderSchemaName = 'steward.payroll_provider.v1'

/** Tax remittances one pay run may create (federal, state, local, social insurance…). */
const payRunTaxesMax = 200

export const PayrollProviderPayload = Type.Object(
  {
    schema: Type.Literal(payrollProviderSchemaName),
    provider: PayloadProvider,
    pay_runs: Type.Array(
      Type.Object(
        {
          id: PayloadId,
          status: Type.Enum(['scheduled', 'approved', 'paid', 'cancelled']),
          period_start: PayloadDate,
          period_end: PayloadDate,
          /** When employees are paid. */
          pay_date: PayloadDate,
          /** When the provider debits the tenant's bank account for the net pay, if it says. */
          funding_date: Type.Optional(PayloadDate),
          currency: PayloadCurrency,
          /** What employees receive, in total. */
          net_pay: PayloadAmount,
          gross_pay: Type.Optional(PayloadAmount),
          employee_count: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
          taxes: Type.Array(
            Type.Object(
              {
                id: PayloadId,
                /** E.g. `federal_income_tax_withholding`, `employer_social_security`, `lohnsteuer`. */
                tax_type: Type.String({ pattern: '^[a-z0-9_]{1,64}$' }),
                /** Who is paid: `IRS`, `Finanzamt Berlin`, `URSSAF`. */
                authority: Type.String({ minLength: 1, maxLength: 200 }),
                /** Withheld from employees' pay, or owed by the employer on top of it. */
                paid_by: Type.Enum(['employee_withholding', 'employer']),
                amount: PayloadAmount,
                due_date: PayloadDate,
              },
              { additionalProperties: false },
            ),
            { maxItems: payRunTaxesMax },
          ),
        },
        { additionalProperties: false },
      ),
      { maxItems: payloadItemsMax },
    ),
  },
  { additionalProperties: false },
)

const validator = envelopeValidator(payrollProviderSchemaName, PayrollProviderPayload)

export const payrollProviderParser: Parser = {
  name: 'payroll_provider_payload',
  version: '1.0.0',
  accepts: acceptsJsonOf('payroll_provider'),
  async *parse(input: ParserInput): AsyncIterable<ParserOutput> {
    const payload = validator.check(await readEnvelope(input, payrollProviderSchemaName))
    const provider = payload.provider
    requireUniqueIds(payload.pay_runs, '/pay_runs')
    // Tax ids become obligation references, so they are unique across the whole payload.
    const taxIds = new Set<string>()
    for (const [index, run] of payload.pay_runs.entries()) {
      for (const [taxIndex, tax] of run.taxes.entries()) {
        if (taxIds.has(tax.id)) throw new ParseError(`/pay_runs/${index}/taxes/${taxIndex}/id: duplicate id ${JSON.stringify(tax.id)}`)
        taxIds.add(tax.id)
      }
    }
    for (const [index, run] of payload.pay_runs.entries()) {
      const path = `/pay_runs/${index}`
      for (const field of ['period_start', 'period_end', 'pay_date'] as const) requireCalendarDate(run[field], `${path}/${field}`)
      if (run.period_end < run.period_start) throw new ParseError(`${path}/period_end: before period_start`)
      if (run.funding_date !== undefined) {
        requireCalendarDate(run.funding_date, `${path}/funding_date`)
        if (run.funding_date > run.pay_date) throw new ParseError(`${path}/funding_date: after the pay date`)
      }
      // A cancelled run owes nothing; the contract has no obligation status to say so, so it yields nothing.
      if (run.status === 'cancelled') continue
      const payrollObligation: ObligationRecord = {
        kind: 'obligation',
        obligation_type: 'payroll',
        direction: 'payable',
        reference: `${provider.id}:${run.id}`,
        description: `Payroll ${run.period_start} to ${run.period_end}, paid ${run.pay_date}`,
        amount: canonicalDecimal(run.net_pay),
        currency: run.currency,
        due_date: run.funding_date ?? run.pay_date,
        counterparty: { name: provider.name ?? provider.id },
      }
      yield recordOutput(payrollObligation, 1)
      for (const [taxIndex, tax] of run.taxes.entries()) {
        yield recordOutput(
          {
            kind: 'obligation',
            obligation_type: 'tax',
            direction: 'payable',
            reference: `${provider.id}:${tax.id}`,
            description: `${tax.tax_type} (${tax.paid_by === 'employer' ? 'employer' : 'withheld'}) for pay run ${run.id}`,
            amount: canonicalDecimal(tax.amount),
            currency: run.currency,
            due_date: requireCalendarDate(tax.due_date, `${path}/taxes/${taxIndex}/due_date`),
            counterparty: { name: tax.authority },
          },
          1,
        )
      }
    }
  },
}
