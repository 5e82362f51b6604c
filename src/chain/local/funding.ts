/** What each account of the test mnemonic holds on a local chain: wei of ETH. */
export const fundedEther = 10_000n * 10n ** 18n;
/** What each account of the test mnemonic holds on a local chain: whole units of each test token. */
export const fundedTokenUnits = 1_000_000n;
