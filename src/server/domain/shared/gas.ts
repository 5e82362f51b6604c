/**
 * The sandbox has no gas market: it assumes each transaction costs 0.0002 of the network's
 * native coin (200 000 gas at 1 gwei), in wei.
 */
export const simulatedGasCostPerTransaction = 200_000n * 1_000_000_000n;
