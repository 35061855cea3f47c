// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/**
 * @title SmartAccount
 * @notice A minimal account for the onchain_base rail (docs/execution.md): it holds ERC-20 tokens and
 * moves them when its owner, or a session key the owner added, calls `execute`.
 *
 * A session key is an EOA that Steward signs with for a bounded time. The owner gives each key one token
 * it may move, a cap on the total it may ever move, and an expiry; the owner can revoke it at any time. A
 * key is added once: revoking is final, its spend is never reset, and a key that expired or was revoked
 * is replaced by a new key rather than renewed, so "what a key may ever move" means exactly that.
 *
 * The owner is not limited by any cap: it is the account holder, and could add itself a key of any cap.
 * The account holds no ether (it has no receive function) and makes no call but the token transfer.
 */
contract SmartAccount {
    using SafeERC20 for IERC20;

    /// @dev Two storage slots: the first (token, expiry, revoked) is read by every check, the second
    /// (cap, spent) by the cap check and written by `execute`. A key exists exactly when its `expiry`
    /// is non-zero: `addSessionKey` requires an expiry after the current block's timestamp. uint64 holds
    /// any timestamp a chain will reach, uint128 any token amount a cap needs (2**128 base units is
    /// 3.4e32 tokens of 6 decimals).
    struct SessionKey {
        address allowedToken;
        uint64 expiry;
        bool revoked;
        uint128 cap;
        uint128 spent;
    }

    /// @notice The account holder: it manages session keys and may execute without a cap.
    address public owner;

    mapping(address key => SessionKey) private _sessionKeys;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    event SessionKeyAdded(address indexed key, address indexed token, uint256 cap, uint256 expiry);

    event SessionKeyRevoked(address indexed key);

    /// @notice `sessionKey` moved `amount` of `token` to `to`; `spentAfter` is the key's total spend
    /// including this transfer. When the owner executes, `sessionKey` is the owner and `spentAfter` is 0:
    /// the owner's transfers count against no cap (a session key's `spentAfter` is never 0).
    event Executed(
        address indexed sessionKey, address indexed token, address indexed to, uint256 amount, uint256 spentAfter
    );

    error NotOwner(address caller);
    /// @notice An address argument that must not be zero was: the owner, a key, a token or a recipient.
    error ZeroAddress();
    /// @notice An amount that must be positive was zero: a transfer's amount or a key's cap.
    error ZeroAmount();
    error ExpiryNotInFuture(uint256 expiry, uint256 blockTimestamp);
    error SessionKeyExists(address key);
    error SessionKeyUnknown(address key);
    /// @dev Not `SessionKeyRevoked`: that name is the event's, and Solidity refuses an event and an error
    /// of the same name in one contract.
    error SessionKeyIsRevoked(address key);
    error SessionKeyExpired(address key, uint256 expiry);
    error TokenNotAllowed(address key, address token);
    error SpendCapExceeded(address key, uint256 cap, uint256 spent, uint256 amount);

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _;
    }

    constructor(address initialOwner) {
        if (initialOwner == address(0)) revert ZeroAddress();
        owner = initialOwner;
        emit OwnershipTransferred(address(0), initialOwner);
    }

    /// @notice Hands the account to another owner, for example when the holder's key is rotated. Session
    /// keys stay as they are. Zero is refused because it would leave the account without a holder.
    function transferOwnership(address newOwner) external onlyOwner {
        if (newOwner == address(0)) revert ZeroAddress();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    /// @notice Lets `key` move up to `cap` of `token` in total, in any number of transfers, until the
    /// first block whose timestamp is `expiry` or later. A key that was ever added, even one revoked or
    /// expired since, is refused with SessionKeyExists.
    function addSessionKey(address key, address token, uint128 cap, uint64 expiry) external onlyOwner {
        if (key == address(0) || token == address(0)) revert ZeroAddress();
        if (cap == 0) revert ZeroAmount();
        if (expiry <= block.timestamp) revert ExpiryNotInFuture(expiry, block.timestamp);
        if (_sessionKeys[key].expiry != 0) revert SessionKeyExists(key);
        _sessionKeys[key] = SessionKey({allowedToken: token, expiry: expiry, revoked: false, cap: cap, spent: 0});
        emit SessionKeyAdded(key, token, cap, expiry);
    }

    /// @notice Ends `key` for good, whether or not it has expired. Revoking it twice is refused, as a
    /// second revocation signals a fault in the caller.
    function revokeSessionKey(address key) external onlyOwner {
        SessionKey storage session = _sessionKeys[key];
        if (session.expiry == 0) revert SessionKeyUnknown(key);
        if (session.revoked) revert SessionKeyIsRevoked(key);
        session.revoked = true;
        emit SessionKeyRevoked(key);
    }

    /**
     * @notice Moves `amount` of `token` from this account to `to`. The caller is a session key, held to
     * its token, cap and expiry, or the owner, held to none. One token transfer per call is all the rail
     * needs; a general `execute(target, value, data)` would let a key call anything, and its limits
     * would have to be read back out of arbitrary calldata.
     *
     * Checks, effects, interactions: every check and the key's new spend (and the event) come before the
     * token is called, so a token that calls back into the account sees the spend already counted.
     * `safeTransfer` accepts tokens that return no value (USDT-style) and refuses one that returns false;
     * a token that reverts (an insufficient balance, say) reverts the whole call, spend included.
     */
    function execute(address token, address to, uint256 amount) external {
        bytes memory refusal = _refusal(msg.sender, token, amount);
        if (refusal.length != 0) {
            // Re-raises the custom error `_refusal` encoded, with its arguments.
            assembly ("memory-safe") {
                revert(add(refusal, 0x20), mload(refusal))
            }
        }
        if (to == address(0)) revert ZeroAddress();
        uint256 spentAfter;
        if (msg.sender != owner) {
            SessionKey storage session = _sessionKeys[msg.sender];
            // At most the cap (checked above), so it fits the uint128 it is stored in.
            spentAfter = session.spent + amount;
            session.spent = uint128(spentAfter);
        }
        emit Executed(msg.sender, token, to, amount, spentAfter);
        IERC20(token).safeTransfer(to, amount);
    }

    /// @notice The key's settings and spend so far; all zeros for a key never added.
    function sessionKey(address key)
        external
        view
        returns (address allowedToken, uint256 cap, uint256 spent, uint256 expiry, bool revoked)
    {
        SessionKey storage session = _sessionKeys[key];
        return (session.allowedToken, session.cap, session.spent, session.expiry, session.revoked);
    }

    /**
     * @notice Whether `execute(token, to, amount)` sent by `key` in the current block passes every check
     * `execute` makes, except the recipient's (`to` must not be zero), which is no property of the key.
     * It answers from the same code `execute` checks with, so the two cannot disagree. It says nothing
     * about the account's balance: the token refuses a transfer the account cannot cover. For the owner it
     * is true for any non-zero token and amount, since the owner's transfers have no cap.
     */
    function isSessionKeyValid(address key, address token, uint256 amount) external view returns (bool) {
        return _refusal(key, token, amount).length == 0;
    }

    /// @dev Why `caller` may not move `amount` of `token`, as the revert data of the custom error that
    /// says so; empty when it may. Order: who the caller is, then what it asks, so a caller that is not a
    /// key learns nothing about the arguments.
    function _refusal(address caller, address token, uint256 amount) private view returns (bytes memory refusal) {
        if (caller == owner) {
            if (token == address(0)) return abi.encodeWithSelector(ZeroAddress.selector);
            if (amount == 0) return abi.encodeWithSelector(ZeroAmount.selector);
            return refusal;
        }
        SessionKey storage session = _sessionKeys[caller];
        uint256 expiry = session.expiry;
        if (expiry == 0) return abi.encodeWithSelector(SessionKeyUnknown.selector, caller);
        if (session.revoked) return abi.encodeWithSelector(SessionKeyIsRevoked.selector, caller);
        if (block.timestamp >= expiry) return abi.encodeWithSelector(SessionKeyExpired.selector, caller, expiry);
        // The allowed token is never zero, so this also refuses a zero token.
        if (token != session.allowedToken) return abi.encodeWithSelector(TokenNotAllowed.selector, caller, token);
        if (amount == 0) return abi.encodeWithSelector(ZeroAmount.selector);
        uint256 cap = session.cap;
        uint256 spent = session.spent;
        // `spent` never exceeds `cap`, so the subtraction cannot underflow, and unlike `spent + amount`
        // this cannot overflow for any amount.
        if (amount > cap - spent) {
            return abi.encodeWithSelector(SpendCapExceeded.selector, caller, cap, spent, amount);
        }
        return refusal;
    }
}
