/** Imports: drag-and-drop upload, the artifacts with extraction and normalization status and counts,
 * refused rows with reasons, tombstone; a raw file's page with its parsed rows and a download link. */
import { api, can, describeError, fetchWithUploadProgress, onSessionChange } from '../api.ts'
import { badge, facts, field, h, link, pager, refreshPage, replace, select, table, type Child } from '../dom.ts'
import { dateTime } from '../format.ts'

const sourceTypes: Array<[string, string]> = [['csv_upload', 'Bank statement or CSV'], ['pdf_upload', 'PDF document'], ['email_inbound', 'Email (.eml)'], ['other', 'Other file']]

function statusTone(status: string): string {
  return status === 'succeeded' ? 'good' : status === 'failed' ? 'bad' : 'warn'
}

type Artifact = Awaited<ReturnType<typeof listArtifacts>>['artifacts'][number]
const listArtifacts = (cursor?: string) => api.GET('/v1/raw', { params: { query: { limit: 50, cursor } } })

/** Extraction and normalization of an artifact, in words. */
export function pipelineState(artifact: Artifact): string {
  const normalization = artifact.normalization
  if (artifact.extraction_status !== 'succeeded') return `extraction ${artifact.extraction_status}${artifact.extraction_error ? `: ${artifact.extraction_error}` : ''}`
  if (normalization === null) return 'extracted, normalization not started'
  return `normalization ${normalization.status}: ${normalization.rows_done} of ${normalization.rows_total ?? '?'} rows (${normalization.created} created, ${normalization.unchanged} unchanged, ${normalization.superseded} superseded, ${normalization.refused_rows} refused)`
}

const settled = (artifact: Artifact) =>
  artifact.extraction_status === 'failed' || artifact.extraction_status === 'skipped' || (artifact.normalization !== null && (artifact.normalization.status === 'succeeded' || artifact.normalization.status === 'failed'))

/**
 * The uploads of this session, kept outside the page's tree: the Imports page is drawn anew after each
 * upload and while artifacts are processing, and an upload still in flight (or its refusal: 413, 415,
 * 403…) must show in the list the page shows now, not in a list a re-render has detached. Each render
 * attaches this same element; signing out or in empties it.
 */
const uploadList = h('ul', { class: 'uploads' })
const uploadStatus = h('div', { role: 'status', 'aria-live': 'polite', 'data-testid': 'upload-status' }, uploadList)
/** Uploads kept in the list: older ones drop off. */
const uploadsShown = 20
/** The kind of file last chosen, so a re-render does not reset the choice. */
let chosenSourceType = sourceTypes[0]![0]
onSessionChange(() => {
  uploadList.replaceChildren()
  chosenSourceType = sourceTypes[0]![0]
})

async function upload(file: File, sourceType: string): Promise<void> {
  const progress = h('progress', { 'aria-label': `Uploading ${file.name}`, max: 100 }) as HTMLProgressElement
  const percent = h('span', { 'data-testid': 'upload-percent' }, '0%')
  const entry = h('li', { 'data-testid': 'upload' }, h('span', {}, `Uploading ${file.name}… `), progress, ' ', percent)
  uploadList.prepend(entry)
  while (uploadList.children.length > uploadsShown) uploadList.lastElementChild!.remove()
  const onProgress = (sent: number, total: number) => {
    const value = total > 0 ? Math.min(100, Math.floor((sent / total) * 100)) : 0
    progress.value = value
    replace(percent, `${value}%`)
    entry.dataset.uploadPercent = String(value)
  }
  try {
    const form = new FormData()
    form.append('source_type', sourceType)
    form.append('file', file, file.name)
    const result = await api.POST('/v1/raw/ingest', {
      body: form as unknown as { source_type: string; file: string },
      bodySerializer: (body: unknown) => body as FormData,
      idempotencyKey: crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`,
      // The SDK's request, sent through XMLHttpRequest so the bar shows bytes sent.
      fetch: fetchWithUploadProgress(onProgress),
    })
    replace(entry, result.deduplicated ? `${file.name} was already imported (same content).` : `${file.name} uploaded: extracting and normalizing…`)
    if (location.hash.startsWith('#/imports')) refreshPage()
  } catch (error) {
    replace(entry, h('span', { class: 'error' }, `${file.name}: ${describeError(error)}`))
  }
}

/** The drop area and file chooser; files dropped or chosen upload at once, each into the upload list. */
function dropzone(): HTMLElement {
  const sourceType = select('source_type', sourceTypes, chosenSourceType)
  sourceType.addEventListener('change', () => {
    chosenSourceType = sourceType.value
  })
  const fileInput = h('input', { type: 'file', name: 'file', multiple: true })
  const send = (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) void upload(file, sourceType.value)
  }
  fileInput.addEventListener('change', () => send(fileInput.files))
  const drop = h(
    'div',
    {
      class: 'dropzone',
      'data-testid': 'dropzone',
      ondragover: (event: Event) => {
        event.preventDefault()
        drop.classList.add('over')
      },
      ondragleave: () => drop.classList.remove('over'),
      ondrop: (event: Event) => {
        event.preventDefault()
        drop.classList.remove('over')
        send((event as DragEvent).dataTransfer?.files ?? null)
      },
    },
    h('p', {}, 'Drop statements, invoices or receipts here, or choose them:'),
    field('Kind of file', sourceType),
    field('Files', fileInput),
  )
  return drop
}

let poll: ReturnType<typeof setTimeout> | undefined
/** Polling slows down while nothing changes (1 s, then ×1.5 up to 15 s): one GET /v1/raw each time. */
let pollDelay = 1000
let lastState = ''

export async function importsPage(_params: Record<string, string>, query: URLSearchParams): Promise<Child> {
  const page = await listArtifacts(query.get('cursor') ?? undefined)
  // Uploading needs raw:write (owners and admins); approvers and viewers would only be refused.
  const drop = can('raw:write') ? dropzone() : h('p', { class: 'note', 'data-testid': 'upload-unavailable' }, 'Uploading files needs the raw:write permission, which your role does not have: an owner or an admin can upload them.')
  // While anything is still being extracted or normalized, look again shortly.
  if (poll !== undefined) clearTimeout(poll)
  const state = page.artifacts.map(pipelineState).join('|')
  pollDelay = state === lastState ? Math.min(pollDelay * 1.5, 15_000) : 1000
  lastState = state
  if (page.artifacts.some((artifact) => !settled(artifact))) {
    poll = setTimeout(() => {
      if (location.hash.startsWith('#/imports')) refreshPage()
    }, pollDelay)
  }
  return [
    h('h1', {}, 'Imports'),
    drop,
    uploadStatus,
    table(
      'Imported files',
      [
        { title: 'File', cell: (row) => link(`#/raw/${encodeURIComponent(row.raw_id)}`, row.filename ?? row.raw_id, { 'data-testid': 'artifact-link' }) },
        { title: 'Kind', cell: (row) => row.source_type },
        { title: 'Received', cell: (row) => dateTime(row.ingested_at) },
        { title: 'Extraction', cell: (row) => badge(row.extraction_status, statusTone(row.extraction_status)) },
        { title: 'Rows', numeric: true, cell: (row) => row.parsed_rows ?? '—' },
        { title: 'Normalization', cell: (row) => h('span', { 'data-testid': 'normalization' }, row.normalization === null ? '—' : row.normalization.status) },
        { title: 'Progress', cell: (row) => pipelineState(row) },
        { title: 'Refused', numeric: true, cell: (row) => row.refused_rows_total },
      ],
      page.artifacts,
    ),
    pager('/imports', query, page.next_cursor),
  ]
}

export async function rawPage(params: Record<string, string>, query: URLSearchParams): Promise<Child> {
  const rawId = params.id!
  const artifact = await api.GET('/v1/raw/{raw_id}', { params: { path: { raw_id: rawId } } })
  const highlighted = new Set((query.get('rows') ?? '').split(',').filter((id) => id !== ''))
  let parsed: Awaited<ReturnType<typeof parsedRows>> | undefined
  let parsedError: string | undefined
  try {
    parsed = await parsedRows(rawId, query.get('cursor') ?? undefined)
  } catch (error) {
    parsedError = describeError(error)
  }
  // The signed URL is this origin's /v1/raw/{id}/content?…: the same path here, whatever PUBLIC_BASE_URL says.
  const signed = new URL(artifact.signed_url)
  const download = `${signed.pathname}${signed.search}`
  // Tombstoning needs raw:write (owners and admins): approvers and viewers are not offered it.
  const tombstone = !can('raw:write') ? null : h('button', {
    type: 'button',
    class: 'danger',
    onclick: async () => {
      if (!confirm(`Tombstone ${artifact.filename ?? rawId}? Its bytes are erased; the record of it stays.`)) return
      try {
        await api.DELETE('/v1/raw/{raw_id}', { params: { path: { raw_id: rawId } } })
        location.hash = '#/imports'
      } catch (error) {
        alert(describeError(error))
      }
    },
  }, 'Tombstone this file')
  return [
    h('h1', {}, 'Raw file: ', h('span', { 'data-testid': 'raw-filename' }, artifact.filename ?? rawId)),
    facts([
      ['Id', artifact.raw_id],
      ['Kind', artifact.source_type],
      ['Media type', artifact.mime_type],
      ['Size', `${artifact.bytes} bytes`],
      ['SHA-256', h('code', { 'data-testid': 'raw-sha256' }, artifact.sha256)],
      ['Received', dateTime(artifact.ingested_at)],
      ['Parser', `${artifact.parser ?? '—'} ${artifact.parser_version ?? ''}`],
      ['Extraction', `${artifact.extraction_status}${artifact.extraction_error ? `: ${artifact.extraction_error}` : ''}`],
      ['Pipeline', pipelineState(artifact)],
    ]),
    h('p', {}, link(download, 'Download the original file', { download: artifact.filename ?? rawId, 'data-testid': 'raw-download' }), ` (link valid until ${dateTime(artifact.expires_at)})`),
    artifact.refused_rows.length > 0
      ? table('Refused rows', [
          { title: 'Stage', cell: (row) => row.stage },
          { title: 'Row', numeric: true, cell: (row) => row.row },
          { title: 'Why', cell: (row) => row.reason },
        ], artifact.refused_rows)
      : h('p', {}, 'No refused rows.'),
    parsed === undefined
      ? h('p', { class: 'error' }, `Parsed rows: ${parsedError}`)
      : [
          table('Parsed rows', [
            { title: 'Row', numeric: true, cell: (row) => h('span', { class: highlighted.has(row.id) ? 'evidence-row' : null, 'data-testid': highlighted.has(row.id) ? 'evidence-row' : null }, String(row.row_index)) },
            { title: 'Id', cell: (row) => row.id },
            { title: 'Kind', cell: (row) => String((row.extracted as { kind?: unknown }).kind ?? '—') },
            { title: 'Extracted', cell: (row) => h('code', {}, JSON.stringify(row.extracted)) },
            { title: 'Confidence', numeric: true, cell: (row) => row.confidence.toFixed(2) },
          ], parsed.parsed),
          pager(`/raw/${encodeURIComponent(rawId)}`, query, parsed.next_cursor),
        ],
    tombstone === null ? null : h('section', { class: 'danger-zone', 'aria-label': 'Tombstone' }, tombstone),
  ]
}

const parsedRows = (rawId: string, cursor?: string) => api.GET('/v1/raw/{raw_id}/parsed', { params: { path: { raw_id: rawId }, query: { limit: 200, cursor } } })
