import { describe, expect, it } from "vitest";
import {
  securePaymentLinkUrl,
  securePaymentUrl,
} from "../../../../src/server/domain/secure-payments/secure-payment-links.ts";

const token = "01KP0J4H80ABCDEFGHJKMNPQRS";

describe("the secure payment link", () => {
  it.each([
    ["http://127.0.0.1:3000/pay", `http://127.0.0.1:3000/pay?token=${token}`],
    [
      "https://pay.example.com/checkout?brand=acme",
      `https://pay.example.com/checkout?brand=acme&token=${token}`,
    ],
    [
      "https://pay.example.com/pay?token=old&brand=acme",
      `https://pay.example.com/pay?token=${token}&brand=acme`,
    ],
    ["https://pay.example.com/pay#summary", `https://pay.example.com/pay?token=${token}#summary`],
    ["https://pay.example.com/pay?", `https://pay.example.com/pay?token=${token}`],
    ["HTTPS://Pay.Example.com:443/a b", `https://pay.example.com/a%20b?token=${token}`],
  ])("on the page %s is %s, as the URL API builds it", (pageUrl, expected) => {
    expect(securePaymentUrl(pageUrl, token)).toBe(expected);
    expect(securePaymentLinkUrl(pageUrl, token)).toBe(expected);
    // The prefix of the page URL seen last is reused, and still gives the same link.
    expect(securePaymentLinkUrl(pageUrl, token)).toBe(expected);
  });

  it("escapes a token that is not alphanumeric as the URL API does", () => {
    expect(securePaymentLinkUrl("http://127.0.0.1:3000/pay", "a b&c")).toBe(
      "http://127.0.0.1:3000/pay?token=a+b%26c",
    );
  });
});
