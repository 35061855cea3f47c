// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.24;

/**
 * @title AgentRegistry
 * @notice Records the external agents Steward admits into a tenant: which wallet signs in as the agent
 * and the hash of the scopes it was granted (docs/agents.md). Steward activates an agent only when the
 * scope hash registered here equals the one it holds, and checks it again before every agent-protocol
 * dispatch, so a scope grant cannot change without a transaction anyone can see.
 *
 * Keys, all bytes32 (docs/agents.md):
 * - a tenant is its UUID's 16 bytes left-padded with zeros, exactly as AuditAnchor encodes it;
 * - an agent is keccak256 of its id's UTF-8 bytes. Agent ids are chosen per tenant, so an agent is
 *   identified by the pair (tenant, agent): two tenants may register the same agent id;
 * - a scope hash is keccak256 of the agent's scope strings, sorted and joined with "|".
 *
 * One account, the registrar (Steward's registrar key), registers, updates and revokes: a tenant has no
 * key of its own on chain, and its UUID is public, so anyone else could register agents under it. A
 * registration says "Steward's registrar admitted this wallet as this agent of this tenant with these
 * scopes", nothing more: the wallet proves it is held when it signs in (SIWX), not here.
 *
 * A wallet belongs to one agent, for good: it cannot be registered again, even after its agent is
 * revoked, so `agentOfWallet` always names the same agent. Revocation is final, and a revoked agent's
 * (tenant, agent) pair cannot be registered again either. There is no upgrade path and no function that
 * removes a record.
 */
contract AgentRegistry {
    /// @dev The first slot (wallet, registration block and time, revoked) is written once at
    /// registration and once at revocation; the second holds the scope hash. An agent exists exactly
    /// when `registeredBlock` is non-zero: no transaction runs in block 0. uint40 holds any block number
    /// and timestamp a chain will reach (2**40 seconds is 34,800 years; 2**40 blocks at 10 a second,
    /// 3,400 years).
    struct Agent {
        address wallet;
        uint40 registeredBlock;
        uint40 registeredAt;
        bool revoked;
        bytes32 scopeHash;
    }

    /// @dev The agent a wallet was registered for; both zero when none was.
    struct WalletAgent {
        bytes32 tenantId;
        bytes32 agentId;
    }

    /// @notice The only account allowed to register, update and revoke.
    address public registrar;

    mapping(bytes32 tenantId => mapping(bytes32 agentId => Agent)) private _agents;

    mapping(address wallet => WalletAgent) private _walletAgents;

    event AgentRegistered(
        bytes32 indexed tenantId, bytes32 indexed agentId, address indexed wallet, bytes32 scopeHash
    );

    event ScopeHashUpdated(
        bytes32 indexed tenantId, bytes32 indexed agentId, bytes32 previousScopeHash, bytes32 newScopeHash
    );

    event AgentRevoked(bytes32 indexed tenantId, bytes32 indexed agentId, address indexed wallet);

    event RegistrarChanged(address indexed previousRegistrar, address indexed newRegistrar);

    error NotRegistrar(address caller);
    error ZeroRegistrar();
    error ZeroTenantId();
    error ZeroAgentId();
    error ZeroWallet();
    error ZeroScopeHash();
    /// @notice The (tenant, agent) pair was registered before, whether or not it has been revoked since.
    error AgentExists(bytes32 tenantId, bytes32 agentId);
    /// @notice The wallet was registered before, for the agent named, whether or not it has been revoked since.
    error WalletTaken(address wallet, bytes32 tenantId, bytes32 agentId);
    error AgentUnknown(bytes32 tenantId, bytes32 agentId);
    /// @dev Not `AgentRevoked`: that name is the event's, and Solidity refuses an event and an error of
    /// the same name in one contract.
    error AgentIsRevoked(bytes32 tenantId, bytes32 agentId);
    /// @notice An update to the hash the agent already has: it would change nothing, which signals a
    /// fault in the caller.
    error ScopeHashUnchanged(bytes32 tenantId, bytes32 agentId, bytes32 scopeHash);

    modifier onlyRegistrar() {
        if (msg.sender != registrar) revert NotRegistrar(msg.sender);
        _;
    }

    constructor(address initialRegistrar) {
        if (initialRegistrar == address(0)) revert ZeroRegistrar();
        registrar = initialRegistrar;
        emit RegistrarChanged(address(0), initialRegistrar);
    }

    /// @notice Hands the registrar role to another account, for example when the key is rotated. Zero
    /// is refused because it would end registration for good.
    function setRegistrar(address newRegistrar) external onlyRegistrar {
        if (newRegistrar == address(0)) revert ZeroRegistrar();
        emit RegistrarChanged(registrar, newRegistrar);
        registrar = newRegistrar;
    }

    /// @notice Registers `wallet` as agent `agentId` of tenant `tenantId`, with the hash of its scopes.
    /// Every argument must be non-zero; a pair or a wallet registered before is refused.
    function register(bytes32 tenantId, bytes32 agentId, address wallet, bytes32 scopeHash)
        external
        onlyRegistrar
    {
        if (tenantId == bytes32(0)) revert ZeroTenantId();
        if (agentId == bytes32(0)) revert ZeroAgentId();
        if (wallet == address(0)) revert ZeroWallet();
        if (scopeHash == bytes32(0)) revert ZeroScopeHash();
        Agent storage agent = _agents[tenantId][agentId];
        if (agent.registeredBlock != 0) revert AgentExists(tenantId, agentId);
        WalletAgent storage walletAgent = _walletAgents[wallet];
        // agentId is never zero for a registered wallet, so a zero agentId means the wallet is free.
        if (walletAgent.agentId != bytes32(0)) revert WalletTaken(wallet, walletAgent.tenantId, walletAgent.agentId);
        // Explicit narrowing: block numbers and timestamps stay far below 2**40 on any chain.
        agent.wallet = wallet;
        agent.registeredBlock = uint40(block.number);
        agent.registeredAt = uint40(block.timestamp);
        agent.scopeHash = scopeHash;
        walletAgent.tenantId = tenantId;
        walletAgent.agentId = agentId;
        emit AgentRegistered(tenantId, agentId, wallet, scopeHash);
    }

    /// @notice Replaces the scope hash of a registered agent that has not been revoked.
    function updateScopeHash(bytes32 tenantId, bytes32 agentId, bytes32 newScopeHash) external onlyRegistrar {
        if (newScopeHash == bytes32(0)) revert ZeroScopeHash();
        Agent storage agent = _agents[tenantId][agentId];
        if (agent.registeredBlock == 0) revert AgentUnknown(tenantId, agentId);
        if (agent.revoked) revert AgentIsRevoked(tenantId, agentId);
        bytes32 previousScopeHash = agent.scopeHash;
        if (newScopeHash == previousScopeHash) revert ScopeHashUnchanged(tenantId, agentId, newScopeHash);
        agent.scopeHash = newScopeHash;
        emit ScopeHashUpdated(tenantId, agentId, previousScopeHash, newScopeHash);
    }

    /// @notice Revokes an agent for good. Its record stays readable (with `revoked` true) and its wallet
    /// stays bound to it. Revoking it twice is refused, as a second revocation signals a fault in the caller.
    function revoke(bytes32 tenantId, bytes32 agentId) external onlyRegistrar {
        Agent storage agent = _agents[tenantId][agentId];
        if (agent.registeredBlock == 0) revert AgentUnknown(tenantId, agentId);
        if (agent.revoked) revert AgentIsRevoked(tenantId, agentId);
        agent.revoked = true;
        emit AgentRevoked(tenantId, agentId, agent.wallet);
    }

    /// @notice The agent's registration; all zeros (and `revoked` false) for a pair never registered.
    /// `registeredBlock` is the block of the registration, whose AgentRegistered log names its transaction.
    function agentOf(bytes32 tenantId, bytes32 agentId)
        external
        view
        returns (address wallet, bytes32 scopeHash, uint256 registeredBlock, uint256 registeredAt, bool revoked)
    {
        Agent storage agent = _agents[tenantId][agentId];
        return (agent.wallet, agent.scopeHash, agent.registeredBlock, agent.registeredAt, agent.revoked);
    }

    /// @notice The agent `wallet` was registered for, revoked or not; both zero when it never was.
    function agentOfWallet(address wallet) external view returns (bytes32 tenantId, bytes32 agentId) {
        WalletAgent storage walletAgent = _walletAgents[wallet];
        return (walletAgent.tenantId, walletAgent.agentId);
    }
}
