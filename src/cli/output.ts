/** How the CLI prints: tables for people, JSON for programs, and a progress bar on a terminal's stderr. */

export interface Output {
  readonly json: boolean
  /** A line on stdout. */
  line(text: string): void
  /** A JSON document on stdout (pretty), or one JSON line when `compact`. */
  data(value: unknown, compact?: boolean): void
  /** A line on stderr (progress notes, warnings: never data). */
  note(text: string): void
  readonly stderrIsTerminal: boolean
  readonly stderr: NodeJS.WriteStream
}

export function createOutput(json: boolean, stdout: NodeJS.WriteStream = process.stdout, stderr: NodeJS.WriteStream = process.stderr): Output {
  return {
    json,
    line: (text) => void stdout.write(`${text}\n`),
    data: (value, compact = false) => void stdout.write(`${compact ? JSON.stringify(value) : JSON.stringify(value, null, 2)}\n`),
    note: (text) => void stderr.write(`${text}\n`),
    stderrIsTerminal: stderr.isTTY === true,
    stderr,
  }
}

export interface Column<Row> {
  readonly header: string
  readonly value: (row: Row) => string
  /** Right-aligned (amounts). */
  readonly right?: boolean
  /** Longest cell, in characters; longer ones end with an ellipsis. */
  readonly max?: number
}

/** A plain-text table: a header row, then one row per item, columns padded to their widest cell. */
export function table<Row>(rows: readonly Row[], columns: ReadonlyArray<Column<Row>>): string {
  const cells = rows.map((row) =>
    columns.map((column) => {
      const value = column.value(row).replace(/\s+/g, ' ')
      return column.max !== undefined && value.length > column.max ? `${value.slice(0, column.max - 1)}…` : value
    }),
  )
  const widths = columns.map((column, index) => Math.max(column.header.length, ...cells.map((row) => row[index]!.length)))
  const render = (values: readonly string[]) =>
    values
      .map((value, index) => (columns[index]!.right === true ? value.padStart(widths[index]!) : value.padEnd(widths[index]!)))
      .join('  ')
      .trimEnd()
  return [render(columns.map((column) => column.header)), ...cells.map(render)].join('\n')
}

/** A progress bar redrawn in place on a terminal; nothing at all elsewhere (logs and pipes get the outcome only). */
export function progressBar(output: Output, label: string, totalBytes: number): { update(doneBytes: number): void; finish(): void } {
  if (!output.stderrIsTerminal || output.json) return { update: () => undefined, finish: () => undefined }
  const width = 30
  let lastDrawn = -1
  const draw = (doneBytes: number) => {
    const fraction = totalBytes === 0 ? 1 : Math.min(1, doneBytes / totalBytes)
    const percent = Math.floor(fraction * 100)
    if (percent === lastDrawn) return
    lastDrawn = percent
    const filled = Math.round(fraction * width)
    output.stderr.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(percent).padStart(3)}% ${formatBytes(doneBytes)}/${formatBytes(totalBytes)}`)
  }
  return {
    update: draw,
    finish: () => {
      draw(totalBytes)
      output.stderr.write('\n')
    },
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}
