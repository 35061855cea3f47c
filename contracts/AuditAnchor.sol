// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.24;

import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";

/**
 * @title AuditAnchor
 * @notice Publishes the Merkle roots of Steward's per-tenant audit batches, so that anyone can check,
 * without trusting Steward's database, that an audit event existed when its batch root was published.
 *
 * A tenant is known on chain by a bytes32 key: its UUID's 16 bytes, left-padded with zeros
 * (docs/anchoring.md). A root is the root of an OpenZeppelin sorted-pair keccak256 Merkle tree whose
 * leaves are the batch's audit event hashes (SHA-256) in chain order.
 *
 * The contract only records that the publisher published a (tenant, root) pair and when. It does not
 * know which events a root covers, and it cannot tell a faithful root from a fabricated one: a verifier
 * recomputes the leaf from the event and checks the proof against a published root.
 */
contract AuditAnchor {
    /// @notice The most pairs one `anchorBatch` call accepts; it bounds the transaction's gas.
    uint256 public constant BATCH_PAIRS_MAX = 50;

    /// @dev Packed into one storage slot, so publishing a pair costs one new slot plus the tenant head.
    /// uint64 holds any block number and timestamp a chain will reach; uint128 any per-tenant count.
    struct Publication {
        uint64 blockNumber;
        uint64 timestamp;
        uint128 sequence;
    }

    /// @notice The only account allowed to anchor.
    address public publisher;

    /// @dev A pair is published exactly when its `blockNumber` is non-zero: no transaction runs in block 0.
    mapping(bytes32 tenantId => mapping(bytes32 root => Publication)) private _publications;

    /// @dev The last root anchored for each tenant; its Publication holds the tenant's current sequence.
    mapping(bytes32 tenantId => bytes32 root) private _latestRoots;

    /// @notice A (tenant, root) pair was published; `sequence` counts the tenant's anchors from 1.
    event Anchored(bytes32 indexed tenantId, bytes32 indexed root, uint256 indexed sequence);

    event PublisherChanged(address indexed previousPublisher, address indexed newPublisher);

    error NotPublisher(address caller);
    error ZeroPublisher();
    error ZeroRoot(bytes32 tenantId);
    error AlreadyPublished(bytes32 tenantId, bytes32 root);
    error LengthMismatch(uint256 tenantIds, uint256 roots);
    error BatchTooLarge(uint256 pairs, uint256 pairsMax);

    modifier onlyPublisher() {
        if (msg.sender != publisher) revert NotPublisher(msg.sender);
        _;
    }

    constructor(address initialPublisher) {
        if (initialPublisher == address(0)) revert ZeroPublisher();
        publisher = initialPublisher;
        emit PublisherChanged(address(0), initialPublisher);
    }

    /// @notice Hands the publisher role to another account, for example when the signing key is rotated.
    /// Zero is refused because it would end anchoring for good.
    function setPublisher(address newPublisher) external onlyPublisher {
        if (newPublisher == address(0)) revert ZeroPublisher();
        emit PublisherChanged(publisher, newPublisher);
        publisher = newPublisher;
    }

    /// @notice Publishes one pair. A duplicate reverts: a single anchor is a deliberate act, and
    /// publishing the same root twice would signal a fault in the caller.
    function anchor(bytes32 tenantId, bytes32 root) external onlyPublisher {
        if (root == bytes32(0)) revert ZeroRoot(tenantId);
        if (_publications[tenantId][root].blockNumber != 0) revert AlreadyPublished(tenantId, root);
        _record(tenantId, root);
    }

    /// @notice Publishes up to BATCH_PAIRS_MAX pairs. Pairs already published (before or earlier in the
    /// same call) are skipped rather than reverting, so a publisher can resend a batch whose transaction
    /// it lost track of without failing on the pairs that did land.
    /// @return published How many pairs were new.
    function anchorBatch(bytes32[] calldata tenantIds, bytes32[] calldata roots)
        external
        onlyPublisher
        returns (uint256 published)
    {
        if (tenantIds.length != roots.length) revert LengthMismatch(tenantIds.length, roots.length);
        if (roots.length > BATCH_PAIRS_MAX) revert BatchTooLarge(roots.length, BATCH_PAIRS_MAX);
        for (uint256 index = 0; index < roots.length; ++index) {
            bytes32 tenantId = tenantIds[index];
            bytes32 root = roots[index];
            // A zero root is a caller's bug, not a replay, so it reverts the whole batch.
            if (root == bytes32(0)) revert ZeroRoot(tenantId);
            if (_publications[tenantId][root].blockNumber != 0) continue;
            _record(tenantId, root);
            ++published;
        }
    }

    function isPublished(bytes32 tenantId, bytes32 root) external view returns (bool) {
        return _publications[tenantId][root].blockNumber != 0;
    }

    /// @notice The block the pair was published in, or 0 when it was not: a verifier can compare it with
    /// the event's time, and fetch the block for its timestamp.
    function publishedBlock(bytes32 tenantId, bytes32 root) external view returns (uint256) {
        return _publications[tenantId][root].blockNumber;
    }

    /// @notice The tenant's most recently anchored root; all zeros when it has none.
    function latestAnchor(bytes32 tenantId)
        external
        view
        returns (bytes32 root, uint256 blockNumber, uint256 timestamp, uint256 sequence)
    {
        root = _latestRoots[tenantId];
        Publication storage publication = _publications[tenantId][root];
        return (root, publication.blockNumber, publication.timestamp, publication.sequence);
    }

    /// @notice Whether `proof` leads from `leaf` to `root` with sorted-pair keccak256 hashing.
    /// It says nothing about publication: combine it with isPublished. It also accepts an inner node as a
    /// "leaf", so the caller must compute the leaf itself, as the SHA-256 hash of the audit event.
    function verifyInclusion(bytes32 root, bytes32 leaf, bytes32[] calldata proof) external pure returns (bool) {
        return MerkleProof.verifyCalldata(proof, root, leaf);
    }

    function _record(bytes32 tenantId, bytes32 root) private {
        uint128 sequence = _publications[tenantId][_latestRoots[tenantId]].sequence + 1;
        // Explicit narrowing: block numbers and timestamps stay far below 2**64 on any chain.
        _publications[tenantId][root] =
            Publication({blockNumber: uint64(block.number), timestamp: uint64(block.timestamp), sequence: sequence});
        _latestRoots[tenantId] = root;
        emit Anchored(tenantId, root, sequence);
    }
}
