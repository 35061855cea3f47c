/**
 * The console's whole rendering layer: `h()` builds DOM nodes. Text is only ever set as text nodes and
 * attributes with setAttribute; there is no innerHTML anywhere, so no value from the API can become markup.
 */
export type Child = Node | string | number | null | undefined | false | readonly Child[]
type Handler = (event: Event) => void
export type Attributes = Record<string, string | number | boolean | Handler | null | undefined>

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value)
    else if (name === 'value' && 'value' in element) (element as HTMLInputElement).value = String(value)
    else element.setAttribute(name, value === true ? '' : String(value))
  }
  append(element, children)
  return element
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    if (Array.isArray(child)) append(parent, child)
    else if (child instanceof Node) parent.appendChild(child)
    else parent.appendChild(document.createTextNode(String(child)))
  }
}

export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren()
  append(parent, children)
}

const svgNamespace = 'http://www.w3.org/2000/svg'
export function svg(tag: string, attributes: Record<string, string | number> = {}, ...children: Node[]): SVGElement {
  const element = document.createElementNS(svgNamespace, tag) as SVGElement
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value))
  for (const child of children) element.appendChild(child)
  return element
}

let idCounter = 0
export const uniqueId = (prefix: string) => `${prefix}-${++idCounter}`

/** A labelled control: `<label for>` + the control (which gets the id). */
export function field(label: string, control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement): HTMLElement {
  if (control.id === '') control.id = uniqueId('f')
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control)
}

export function select(name: string, options: ReadonlyArray<readonly [string, string]>, value = ''): HTMLSelectElement {
  return h('select', { name }, ...options.map(([optionValue, text]) => h('option', { value: optionValue, selected: optionValue === value }, text)))
}

export interface Column<Row> {
  readonly title: string
  readonly cell: (row: Row) => Child
  readonly numeric?: boolean
}

export function table<Row>(caption: string, columns: ReadonlyArray<Column<Row>>, rows: readonly Row[], empty = 'Nothing here yet.'): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'empty' }, `${caption}: ${empty}`)
  return h(
    'table',
    {},
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, ...columns.map((column) => h('th', { scope: 'col', class: column.numeric ? 'num' : null }, column.title)))),
    h('tbody', {}, ...rows.map((row) => h('tr', {}, ...columns.map((column) => h('td', { class: column.numeric ? 'num' : null }, column.cell(row)))))),
  )
}

/** A definition list of label → value pairs. */
export function facts(pairs: ReadonlyArray<readonly [string, Child]>): HTMLElement {
  return h('dl', { class: 'facts' }, ...pairs.flatMap(([label, value]) => [h('dt', {}, label), h('dd', {}, value ?? '—')]))
}

export const link = (href: string, text: Child, attributes: Attributes = {}) => h('a', { href, ...attributes }, text)
export const badge = (text: string, tone = '') => h('span', { class: `badge ${tone}` }, text)

/** Asks the console to render the current page again (after an action changed what it shows). */
export const refreshPage = () => window.dispatchEvent(new Event('console:refresh'))

/** The query of a list page as a fragment link (`#/ledger/transactions?direction=outflow&cursor=…`). */
export function pageLink(path: string, query: Record<string, string | undefined>): string {
  const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')).toString()
  return `#${path}${search === '' ? '' : `?${search}`}`
}

/** "Next page" / "First page" links for a cursor-paged list. */
export function pager(path: string, query: URLSearchParams, nextCursor: string | null | undefined): HTMLElement {
  const base = Object.fromEntries([...query.entries()].filter(([key]) => key !== 'cursor'))
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Pages' },
    query.has('cursor') ? link(pageLink(path, base), 'First page') : null,
    nextCursor ? link(pageLink(path, { ...base, cursor: nextCursor }), 'Next page', { rel: 'next' }) : h('span', {}, 'Last page'),
  )
}

/** A filter form whose submit moves to the list page with those filters (and no cursor). */
export function filterForm(path: string, controls: ReadonlyArray<readonly [string, HTMLInputElement | HTMLSelectElement]>, submitLabel = 'Apply filters'): HTMLFormElement {
  return h(
    'form',
    {
      class: 'filters',
      role: 'search',
      onsubmit: (event: Event) => {
        event.preventDefault()
        location.hash = pageLink(path, Object.fromEntries(controls.map(([, control]) => [control.name, control.value])))
      },
    },
    ...controls.map(([label, control]) => field(label, control)),
    h('button', { type: 'submit' }, submitLabel),
  )
}

export function input(name: string, value: string | null, attributes: Attributes = {}): HTMLInputElement {
  return h('input', { name, value: value ?? '', ...attributes })
}
