// Fragments of the ABIs shipped by @requestnetwork/smart-contracts 0.47.0 in
// dist/src/lib/artifacts/<Contract>/0.1.0.json, copied `as const` so viem can type the calls.
// test/chain/abis.test.ts checks them against the package.

/** `approve(address,uint256)` of ERC-20 tokens (selector 0x095ea7b3). */
export const erc20ApproveAbi = [
  {
    inputs: [
      { internalType: "address", name: "spender", type: "address" },
      { internalType: "uint256", name: "amount", type: "uint256" },
    ],
    name: "approve",
    outputs: [{ internalType: "bool", name: "", type: "bool" }],
    stateMutability: "nonpayable",
    type: "function",
  },
] as const;

/** ERC20FeeProxy: the payment call (selector 0xc219a14d) and the event it emits. */
export const erc20FeeProxyAbi = [
  {
    inputs: [
      { internalType: "address", name: "_tokenAddress", type: "address" },
      { internalType: "address", name: "_to", type: "address" },
      { internalType: "uint256", name: "_amount", type: "uint256" },
      { internalType: "bytes", name: "_paymentReference", type: "bytes" },
      { internalType: "uint256", name: "_feeAmount", type: "uint256" },
      { internalType: "address", name: "_feeAddress", type: "address" },
    ],
    name: "transferFromWithReferenceAndFee",
    outputs: [],
    stateMutability: "nonpayable",
    type: "function",
  },
  {
    anonymous: false,
    inputs: [
      { indexed: false, internalType: "address", name: "tokenAddress", type: "address" },
      { indexed: false, internalType: "address", name: "to", type: "address" },
      { indexed: false, internalType: "uint256", name: "amount", type: "uint256" },
      { indexed: true, internalType: "bytes", name: "paymentReference", type: "bytes" },
      { indexed: false, internalType: "uint256", name: "feeAmount", type: "uint256" },
      { indexed: false, internalType: "address", name: "feeAddress", type: "address" },
    ],
    name: "TransferWithReferenceAndFee",
    type: "event",
  },
] as const;

/** EthereumFeeProxy: the payable payment call (selector 0xb868980b) and the event it emits. */
export const ethereumFeeProxyAbi = [
  {
    inputs: [
      { internalType: "address payable", name: "_to", type: "address" },
      { internalType: "bytes", name: "_paymentReference", type: "bytes" },
      { internalType: "uint256", name: "_feeAmount", type: "uint256" },
      { internalType: "address payable", name: "_feeAddress", type: "address" },
    ],
    name: "transferWithReferenceAndFee",
    outputs: [],
    stateMutability: "payable",
    type: "function",
  },
  {
    anonymous: false,
    inputs: [
      { indexed: false, internalType: "address", name: "to", type: "address" },
      { indexed: false, internalType: "uint256", name: "amount", type: "uint256" },
      { indexed: true, internalType: "bytes", name: "paymentReference", type: "bytes" },
      { indexed: false, internalType: "uint256", name: "feeAmount", type: "uint256" },
      { indexed: false, internalType: "address", name: "feeAddress", type: "address" },
    ],
    name: "TransferWithReferenceAndFee",
    type: "event",
  },
] as const;

/** BatchConversionPayments: `batchPayments` (selector 0x92cddb91). */
export const batchConversionPaymentsAbi = [
  {
    inputs: [
      {
        components: [
          { internalType: "uint256", name: "paymentNetworkId", type: "uint256" },
          {
            components: [
              { internalType: "address", name: "recipient", type: "address" },
              { internalType: "uint256", name: "requestAmount", type: "uint256" },
              { internalType: "address[]", name: "path", type: "address[]" },
              { internalType: "bytes", name: "paymentReference", type: "bytes" },
              { internalType: "uint256", name: "feeAmount", type: "uint256" },
              { internalType: "uint256", name: "maxToSpend", type: "uint256" },
              { internalType: "uint256", name: "maxRateTimespan", type: "uint256" },
            ],
            internalType: "struct BatchNoConversionPayments.RequestDetail[]",
            name: "requestDetails",
            type: "tuple[]",
          },
        ],
        internalType: "struct BatchConversionPayments.MetaDetail[]",
        name: "metaDetails",
        type: "tuple[]",
      },
      { internalType: "address[][]", name: "pathsToUSD", type: "address[][]" },
      { internalType: "address", name: "feeAddress", type: "address" },
    ],
    name: "batchPayments",
    outputs: [],
    stateMutability: "payable",
    type: "function",
  },
] as const;
