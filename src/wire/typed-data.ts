import type { TypedDataDomain } from "viem";
import { isRecord } from "./is-record.ts";
import { InvalidValueError } from "./payreq-error.ts";

/** One member of an EIP-712 struct type. */
export interface TypedDataMember {
  name: string;
  type: string;
}

/** EIP-712 typed data in the shape viem's `signTypedData` and `verifyTypedData` take. */
export interface SignableTypedData {
  domain: TypedDataDomain;
  types: Record<string, TypedDataMember[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

function readMembers(value: unknown, field: string): TypedDataMember[] {
  const expected = "a list of {name, type}";
  if (!Array.isArray(value)) throw new InvalidValueError(field, expected, value);
  return value.map((member, index) => {
    if (!isRecord(member) || typeof member.name !== "string" || typeof member.type !== "string") {
      throw new InvalidValueError(`${field}[${index}]`, "a member {name, type}", member);
    }
    return { name: member.name, type: member.type };
  });
}

/** The struct type no other type refers to: the one the signature is over. */
function findPrimaryType(types: Record<string, TypedDataMember[]>): string {
  const referenced = new Set(
    Object.values(types).flatMap((members) =>
      members.map((member) => member.type.replace(/(\[\d*\])+$/, "")),
    ),
  );
  const roots = Object.keys(types).filter((name) => !referenced.has(name));
  const [root] = roots;
  if (roots.length !== 1 || root === undefined) {
    throw new InvalidValueError("typed data types", "exactly one type that no other type refers to", roots, {
      details: "Give primaryType to say which type is signed.",
    });
  }
  return root;
}

/**
 * Reads EIP-712 typed data as the service answers it (a JSON string such as `paymentIntent` and
 * `approvalPermitPayload`, or an object such as `recurringPaymentPermit`): `domain`, `types`, and
 * the values under `values` (or `message`). `primaryType` is taken as given, or else found as the
 * one type no other refers to; `EIP712Domain` is left out of `types`. The result can be passed to
 * viem's `account.signTypedData` as is. Throws `InvalidValueError` naming the part that is wrong.
 */
export function readTypedData(payload: unknown): SignableTypedData {
  let value = payload;
  if (typeof payload === "string") {
    try {
      value = JSON.parse(payload);
    } catch (error) {
      throw new InvalidValueError("typed data", "a JSON object", payload, { cause: error });
    }
  }
  if (!isRecord(value)) throw new InvalidValueError("typed data", "an object", value);
  const { domain, primaryType } = value;
  if (!isRecord(domain)) throw new InvalidValueError("typed data domain", "an object", domain);
  if (!isRecord(value.types)) throw new InvalidValueError("typed data types", "an object", value.types);
  const types: Record<string, TypedDataMember[]> = {};
  for (const [name, members] of Object.entries(value.types)) {
    if (name !== "EIP712Domain") types[name] = readMembers(members, `typed data types.${name}`);
  }
  const message = value.values ?? value.message;
  if (!isRecord(message)) throw new InvalidValueError("typed data values", "an object", message);
  if (primaryType !== undefined && (typeof primaryType !== "string" || !(primaryType in types))) {
    throw new InvalidValueError("typed data primaryType", "the name of one of its types", primaryType);
  }
  return {
    domain: domain as TypedDataDomain,
    types,
    primaryType: primaryType ?? findPrimaryType(types),
    message,
  };
}
