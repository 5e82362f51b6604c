// Runs in the page before its scripts (a plain script, so that no compiler helper leaks into it):
// an EIP-1193 provider at window.ethereum that records every request in __walletCalls, follows
// chain switches, rejects the first `rejectSends` transactions with code 4001 like a user pressing
// "Reject", answers the others with fake hashes and reports them mined at once.
(() => {
  const options = globalThis.__fakeWalletOptions;
  const calls = [];
  const mined = new Set();
  let chainId = options.chainId;
  let rejections = options.rejectSends ?? 0;
  const toHex = (value) => `0x${value.toString(16)}`;
  const rpcError = (code, message) => Object.assign(new Error(message), { code });
  const receipt = (hash) => ({
    transactionHash: hash,
    transactionIndex: "0x0",
    blockHash: `0x${"b1".repeat(32)}`,
    blockNumber: "0x100",
    from: options.account,
    to: null,
    cumulativeGasUsed: "0x5208",
    gasUsed: "0x5208",
    effectiveGasPrice: "0x1",
    contractAddress: null,
    logs: [],
    logsBloom: `0x${"00".repeat(256)}`,
    status: "0x1",
    type: "0x2",
  });
  const handle = (call, params) => {
    switch (call.method) {
      case "eth_requestAccounts":
      case "eth_accounts":
        return [options.account];
      case "eth_chainId":
        return toHex(chainId);
      case "wallet_switchEthereumChain":
        chainId = Number.parseInt(params[0].chainId, 16);
        return null;
      case "eth_sendTransaction": {
        if (rejections > 0) {
          rejections -= 1;
          throw rpcError(4001, "User rejected the request.");
        }
        const hash = `0x${"7a".repeat(31)}${(mined.size + 1).toString(16).padStart(2, "0")}`;
        mined.add(hash);
        call.hash = hash;
        return hash;
      }
      case "eth_blockNumber":
        return "0x100";
      case "eth_getTransactionReceipt":
        return mined.has(params[0]) ? receipt(params[0]) : null;
      default:
        throw rpcError(4200, `The test wallet does not support ${call.method}.`);
    }
  };
  globalThis.__walletCalls = calls;
  globalThis.ethereum = {
    request: async ({ method, params }) => {
      const call = { method, params: params ?? null };
      calls.push(call);
      return handle(call, params ?? []);
    },
    on: () => undefined,
    removeListener: () => undefined,
  };
})();
