/**
 * RFC 6570 level-1 URI templates, as the resource templates write them (`svc://ledger/accounts/{account_id}`):
 * a variable matches one non-empty path segment (no `/`), percent-decoded. A variable that ends the
 * template also takes the `/` a value may hold, written as is or as `%2F` (a memory page's slug,
 * `counterparty/cpy_…`: `svc://wiki/pages/counterparty/cpy_…`). Pure.
 */

/** Longest value a template variable takes (the bound of a REST path id). */
export const templateValueCharactersMax = 255

const compiled = new Map<string, { pattern: RegExp; names: string[] }>()

function compile(template: string) {
  const cached = compiled.get(template)
  if (cached !== undefined) return cached
  const names: string[] = []
  const parts = template.split(/(\{[a-z_]+\})/).filter((part) => part !== '')
  const source = parts
    .map((part, index) => {
      const variable = /^\{([a-z_]+)\}$/.exec(part)
      if (variable === null) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      names.push(variable[1]!)
      return index === parts.length - 1 ? '([^?#]+)' : '([^/?#]+)'
    })
    .join('')
  const entry = { pattern: new RegExp(`^${source}$`), names }
  compiled.set(template, entry)
  return entry
}

/** The template's variables in `uri`, or undefined when the URI is not of this template. */
export function matchTemplate(template: string, uri: string): Record<string, string> | undefined {
  const { pattern, names } = compile(template)
  const match = pattern.exec(uri)
  if (match === null) return undefined
  const params: Record<string, string> = {}
  for (const [index, name] of names.entries()) {
    let value: string
    try {
      value = decodeURIComponent(match[index + 1]!)
    } catch {
      return undefined
    }
    if (value.length === 0 || value.length > templateValueCharactersMax) return undefined
    params[name] = value
  }
  return params
}
