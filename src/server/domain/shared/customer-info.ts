import type { CustomerInfoRecord } from "../../store/records.ts";
import type { Schemas } from "./wire-types.ts";

type Address = NonNullable<Schemas["CustomerInfo"]["address"]>;

/** Copies the given members only: the customer info schema is open, and nothing else is stored. */
function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) if (source[key] !== undefined) picked[key] = source[key];
  return picked;
}

/** The customer info to keep with a request, without members the spec does not describe. */
export function readCustomerInfo(info: Schemas["CustomerInfo"] | undefined): CustomerInfoRecord | null {
  if (info === undefined) return null;
  const kept: CustomerInfoRecord = pick(info, ["firstName", "lastName", "email"] as const);
  if (info.address !== undefined) {
    kept.address = pick<Address, keyof Address>(info.address, [
      "street",
      "city",
      "state",
      "postalCode",
      "country",
    ]);
  }
  return kept;
}
