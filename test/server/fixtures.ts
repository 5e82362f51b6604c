import { type AccountConfig, createDefaultConfig, type SandboxConfig } from "../../src/server/index.ts";

/** The API key of a second account, to check that one account never sees another's records. */
export const otherApiKey = "sk_other_account_0000000001";

/** Call options that present the second account's API key instead of the sandbox one. */
export const asOtherAccount = { auth: "none" as const, headers: { "x-api-key": otherApiKey } };

/** The default configuration plus the second account (`acct_other`), with these client IDs. */
export function configWithOtherAccount(clientIds: AccountConfig["clientIds"] = []): SandboxConfig {
  const config = createDefaultConfig();
  config.accounts.push({
    id: "acct_other",
    apiKeys: [otherApiKey],
    webhookSecret: "whsec_other_account_01",
    clientIds,
  });
  return config;
}

/** A valid payer registration (`POST /v2/payer`) under `clientUserId`. */
export const payerRegistration = (clientUserId: string) => ({
  clientUserId,
  email: "erika@example.com",
  firstName: "Erika",
  lastName: "Mustermann",
  beneficiaryType: "individual" as const,
  dateOfBirth: "1988-04-12",
  addressLine1: "Musterstrasse 1",
  city: "Berlin",
  state: "BE",
  postcode: "10115",
  country: "DE",
  nationality: "DE",
  phone: "+4915123456789",
  ssn: "12345678901",
});

/** A valid German bank account for the payment-details operations. */
export const bankAccount = {
  bankName: "Musterbank Berlin",
  accountName: "Erika Mustermann",
  beneficiaryType: "individual" as const,
  currency: "EUR",
  addressLine1: "Musterstrasse 1",
  city: "Berlin",
  country: "DE",
  dateOfBirth: "1988-04-12",
  postalCode: "10115",
  iban: "DE89370400440532013000",
};

/**
 * `configWithOtherAccount`, with a wallet whose sign-in acts for each account: `sandboxWallet`
 * for the sandbox account, `otherWallet` for `acct_other`.
 */
export function configWithAccountWallets(sandboxWallet: string, otherWallet: string): SandboxConfig {
  const config = configWithOtherAccount();
  const [sandbox, other] = config.accounts;
  if (sandbox) sandbox.wallets = [sandboxWallet];
  if (other) other.wallets = [otherWallet];
  return config;
}
