/**
 * The memory module's agent-protocol contribution (docs/mcp.md): the resource template
 * svc://wiki/pages/{slug}, the same PagesService read as GET /v1/memory/pages/{slug_or_id}, as Markdown
 * (the page's content). wiki:read, as the route.
 */
import type { RpcContribution } from '../../platform/rpc/contributions.ts'
import type { PagesService } from './pages.service.ts'

export function memoryRpc(pages: PagesService): RpcContribution {
  return {
    resourceTemplates: [
      {
        name: 'wiki.page',
        title: 'Memory page',
        uriTemplate: 'svc://wiki/pages/{slug}',
        description: 'A memory page (account, counterparty, obligation, invoice, agent, policy, monthly summary, cash flow) as Markdown, by slug or id, as GET /v1/memory/pages/{slug_or_id} reads it.',
        mimeType: 'text/markdown',
        scopes: ['wiki:read'],
        read: async (context, params) => (await pages.get(context.principal!.tenantId, params.slug!)).content,
      },
    ],
  }
}
