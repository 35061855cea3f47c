// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/**
 * @title TestUSDC
 * @notice A stand-in for USDC in sandboxes and tests: an OpenZeppelin ERC-20 with USDC's name, symbol
 * and 6 decimals, which its deployer can mint at will. It is never deployed outside sandboxes and tests:
 * on a real chain the onchain_base rail moves the chain's real USDC, whose issuer alone mints it.
 */
contract TestUSDC is ERC20 {
    /// @notice The only account allowed to mint: the deployer. Set once, in the constructor. It is a
    /// storage variable rather than `immutable` so the runtime code is exactly the artifact's
    /// `deployedBytecode` (an immutable is written into the code at deployment).
    address public minter;

    error NotMinter(address caller);

    constructor() ERC20("Test USD Coin", "USDC") {
        minter = msg.sender;
    }

    /// @notice USDC's decimals: amounts are in millionths of a dollar.
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice Creates `amount` new tokens for `to`. OpenZeppelin's `_mint` refuses the zero address.
    function mint(address to, uint256 amount) external {
        if (msg.sender != minter) revert NotMinter(msg.sender);
        _mint(to, amount);
    }
}
