import { type Address, keccak256, stringToBytes } from "viem";
import { chainIds, type NetworkName } from "./networks.ts";

/** A currency the service can be paid in, in the shape of the spec's `Currency`. */
export interface TokenRecord {
  id: string;
  name: string;
  symbol: string;
  decimals: number;
  address: Address;
  network: NetworkName;
  type: "ERC20" | "ETH";
  hash: Address;
  chainId: number;
}

/**
 * The value that stands for a native coin where a token address would be: the last 20 bytes of
 * keccak256 over `{"type":"eth","value":"<symbol>"}` in lower case, as the service's currency
 * library computes it (0xf5af88e117747e87fc5929f2ff87221b1447652e for ETH).
 */
export function computeNativeCurrencyHash(symbol: string): Address {
  const storageCurrency = JSON.stringify({ type: "ETH", value: symbol }).toLowerCase();
  return `0x${keccak256(stringToBytes(storageCurrency)).slice(-40)}`;
}

function erc20(network: NetworkName, symbol: string, name: string, decimals: number, address: Address) {
  return { id: `${symbol}-${network}`, name, symbol, decimals, address, network, type: "ERC20" as const };
}

// Native symbols and ids follow the service's currency list: the symbol of a non-mainnet native
// coin already carries the network ("ETH-base"), hence ids such as "ETH-base-base". The hash is
// written out (computeNativeCurrencyHash gives it, test/chain/tokens.test.ts checks each): a
// Keccak in JavaScript costs the server's start some 5-10 ms for the six.
function native(network: NetworkName, symbol: string, name: string, hash: Address) {
  return {
    id: `${symbol}-${network}`,
    name,
    symbol,
    decimals: 18,
    address: hash,
    network,
    type: "ETH" as const,
  };
}

const records = [
  erc20("mainnet", "USDC", "USD Coin", 6, "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"),
  erc20("mainnet", "USDT", "Tether USD", 6, "0xdAC17F958D2ee523a2206206994597C13D831ec7"),
  erc20("mainnet", "DAI", "Dai Stablecoin", 18, "0x6B175474E89094C44Da98b954EedeAC495271d0F"),
  erc20("mainnet", "WETH", "Wrapped Ether", 18, "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2"),
  native("mainnet", "ETH", "Ether", "0xf5af88e117747e87fc5929f2ff87221b1447652e"),
  erc20("base", "USDC", "USD Coin", 6, "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"),
  erc20("base", "USDT", "Tether USD", 6, "0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2"),
  erc20("base", "DAI", "Dai Stablecoin", 18, "0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb"),
  erc20("base", "WETH", "Wrapped Ether", 18, "0x4200000000000000000000000000000000000006"),
  native("base", "ETH-base", "Base Ether", "0xb678b03f3f3a6ea652ad1d183032fac176d83b08"),
  // Where a bridged USDC came first, the service lists native USDC as USDCn.
  erc20("optimism", "USDC", "USD Coin", 6, "0x7F5c764cBc14f9669B88837ca1490cCa17c31607"),
  erc20("optimism", "USDCn", "USD Coin", 6, "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85"),
  erc20("optimism", "USDT", "Tether USD", 6, "0x94b008aA00579c1307B0EF2c499aD98a8ce58e58"),
  erc20("optimism", "DAI", "Dai Stablecoin", 18, "0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1"),
  erc20("optimism", "WETH", "Wrapped Ether", 18, "0x4200000000000000000000000000000000000006"),
  native("optimism", "ETH-optimism", "Optimism Ether", "0x058fa190e345e245c74b4f1adbff6adfcfd8fff3"),
  erc20("arbitrum-one", "USDC", "USD Coin", 6, "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"),
  erc20("arbitrum-one", "USDT", "Tether USD", 6, "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9"),
  erc20("arbitrum-one", "DAI", "Dai Stablecoin", 18, "0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1"),
  native("arbitrum-one", "AETH", "Arbitrum Ether", "0x0ee88324f875d378f9a06643830934cadff6b1e5"),
  erc20("matic", "USDC", "USD Coin (PoS)", 6, "0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174"),
  erc20("matic", "USDCn", "USD Coin", 6, "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359"),
  erc20("matic", "USDT", "(PoS) Tether USD", 6, "0xc2132D05D31c914a87C6611C10748AEb04B58e8F"),
  erc20("matic", "DAI", "(PoS) Dai Stablecoin", 18, "0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063"),
  native("matic", "MATIC", "Matic", "0x23c7fe5a44ca213deed6f3e2e714d747fcbcdbf0"),
  erc20("sepolia", "FAU", "FAU", 18, "0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C"),
  // The service's test tokens: 18 decimals, as its currency list gives them.
  erc20("sepolia", "fUSDC", "FakeUSDC", 18, "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"),
  erc20("sepolia", "fUSDT", "FakeUSDT", 18, "0xF046b3CA5ae2879c6bAcC4D42fAF363eE8379F78"),
  native("sepolia", "ETH-sepolia", "Sepolia Ether", "0xbb3546497a53cd710beb11b84c5240327f145bcb"),
];

/** Every currency the reference server knows, with addresses checked against their issuers. */
export const tokenTable: readonly TokenRecord[] = Object.freeze(
  records.map((record) =>
    Object.freeze({ ...record, hash: record.address, chainId: chainIds[record.network] }),
  ),
);

/** The table by lower-case id, the first of equal ids winning, as a search of the table would find. */
const tokensById = new Map<string, TokenRecord>();
for (const token of tokenTable) {
  const id = token.id.toLowerCase();
  if (!tokensById.has(id)) tokensById.set(id, token);
}

/** The currency with this id (`USDC-base`, `ETH-sepolia-sepolia`), compared case-insensitively. */
export function findToken(currencyId: string): TokenRecord | undefined {
  return tokensById.get(currencyId.toLowerCase());
}

/** The table by network, in table order: listing a network's currencies reads only them. */
const tokensByNetwork = new Map<string, TokenRecord[]>();
for (const token of tokenTable) {
  const onNetwork = tokensByNetwork.get(token.network);
  if (onNetwork) onNetwork.push(token);
  else tokensByNetwork.set(token.network, [token]);
}

/** The currencies on a network and/or with a symbol (case-insensitive), in table order. */
export function listTokens(
  filter: { network?: string | undefined; symbol?: string | undefined } = {},
): TokenRecord[] {
  const candidates = filter.network === undefined ? tokenTable : (tokensByNetwork.get(filter.network) ?? []);
  const symbol = filter.symbol?.toLowerCase();
  return symbol === undefined
    ? candidates.slice()
    : candidates.filter((token) => token.symbol.toLowerCase() === symbol);
}

/** The currency with this contract address on a network (case-insensitive), if the table has one. */
export function findTokenByAddress(network: NetworkName, address: string): TokenRecord | undefined {
  const wanted = address.toLowerCase();
  return tokenTable.find((token) => token.network === network && token.address.toLowerCase() === wanted);
}
