/**
 * What the audit layer needs from the chain, as narrow interfaces: reading (the public verifier) and
 * publishing (the anchor publisher job). `createAnchorChain` in anchor-contract.ts implements both over
 * the AuditAnchor contract; tests can stand in for either.
 */
export type HexString = `0x${string}`

export interface AnchorChainReader {
  isPublished(tenantId: string, root: HexString): Promise<boolean>
}

export interface AnchorChainPublisher extends AnchorChainReader {
  readonly contractAddress: HexString
  chainId(): Promise<number>
  /**
   * Publishes up to 50 (tenant, root) pairs in one transaction and waits for its receipt; `published`
   * counts the pairs that were new (the contract skips pairs it already holds).
   */
  publish(pairs: ReadonlyArray<{ tenantId: string; root: HexString }>): Promise<{ txHash: HexString; blockNumber: bigint; published: number }>
  /** Where a pair was published: its transaction and block, or null when it was not. */
  findPublication(tenantId: string, root: HexString): Promise<{ txHash: HexString; blockNumber: bigint } | null>
}
