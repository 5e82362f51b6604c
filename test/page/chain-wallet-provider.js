// Runs in the page before its scripts (a plain script, so that no compiler helper leaks into it):
// an EIP-1193 provider at window.ethereum that hands every request to the test's Node process
// (`__chainWalletRequest`, exposed by chain-wallet.ts), which signs with a funded account and
// talks to the local chain. Errors keep their EIP-1193 code, as a wallet's do.
(() => {
  globalThis.ethereum = {
    request: async ({ method, params }) => {
      const answer = await globalThis.__chainWalletRequest({ method, params: params ?? [] });
      if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
      return answer.result;
    },
    on: () => undefined,
    removeListener: () => undefined,
  };
})();
