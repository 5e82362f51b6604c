import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { describe, expect, it } from "vitest";
import { uriFormat } from "../../src/spec/uri-format.ts";

const ajvUri = fullFormats.uri as (text: string) => boolean;

const valid = [
  "http://127.0.0.1:3000/pay?token=01M8FPZ53HK8VNGDVQM5M71VSW",
  "https://example.com/return",
  "HTTPS://EXAMPLE.COM/Return?A=B#Top",
  "https://user:secret@shop.example:8443/a/b;c?d=e&f=%2F#g",
  "http://[::1]:3000/pay",
  "http://[2001:db8::7]/c=GB?objectClass?one",
  "http://[v7.fe80::a+en1]/",
  "http://256.1.1.1/",
  "mailto:payer@example.com",
  "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
  "file:///etc/hosts",
  "tel:+1-816-555-1212",
  "a:b",
  "x://",
];
const invalid = [
  "",
  "example.com",
  "/relative/path",
  "https://exa mple.com/",
  "https://example.com/%zz",
  "1http://example.com/",
  "http://[::1/",
  "http://[::g]/",
  "http://example.com/[a]",
  "http://ex[ample.com/",
  "https://example.com/\u00e9",
  "https://example.com/\n",
  "no-scheme-here",
  ":",
];

/** Texts built from the parts of URIs and what breaks them, none with a `[`: 22,680 of them. */
function bracketFreeCorpus(): string[] {
  const schemes = ["http", "HTTPS", "a", "a+b-c.d", "1a", "", "h t"];
  const authorities = [
    "",
    "//",
    "/",
    "//example.com",
    "//EXAMPLE.com",
    "//user:pw@host",
    "//@host",
    "//1.2.3.4",
    "//256.256.256.256",
    "//1.2.3",
    "//01.002.3.4",
    "//h%41st",
    "//h%4",
    "//host:",
    "//host:80",
    "//host:8x",
    "//ho]st",
    "//ho st",
  ];
  const paths = ["", "/", "/a/b", "//a", "/a%20b", "/%G0", "/a:b@c", "/é", "a/b", "/a b"];
  const tails = ["", "?", "?a=b&c=d", "?a/b?c", "#", "#frag/ment?", "?%", "#a#b", "?a]b"];
  const corpus: string[] = [];
  for (const scheme of schemes)
    for (const authority of authorities)
      for (const path of paths)
        for (const tail of tails) {
          corpus.push(`${scheme}:${authority}${path}${tail}`, `${scheme}${authority}${path}${tail}`);
        }
  return corpus;
}

describe("uriFormat", () => {
  it("accepts and refuses what ajv-formats' full uri does", () => {
    const verdicts = (texts: string[]) => texts.map((text) => [text, uriFormat(text), ajvUri(text)]);
    expect(verdicts(valid)).toEqual(valid.map((text) => [text, true, true]));
    expect(verdicts(invalid)).toEqual(invalid.map((text) => [text, false, false]));
  });

  it("agrees with it on every text of a corpus of URI parts without brackets", () => {
    const corpus = bracketFreeCorpus();
    const disagreements = corpus.filter((text) => uriFormat(text) !== ajvUri(text));
    expect(disagreements).toEqual([]);
    // Both answers occur often: a corpus all valid or all invalid would prove nothing.
    const accepted = corpus.filter((text) => uriFormat(text)).length;
    expect(accepted).toBeGreaterThan(2_000);
    expect(corpus.length - accepted).toBeGreaterThan(5_000);
  });

  it("uses ajv-formats' pattern with its IP-literal alternative, the one part that admits a `[`, taken out", () => {
    const require = createRequire(import.meta.url);
    const source = readFileSync(require.resolve("ajv-formats/dist/formats.js"), "utf8");
    const literal = /^const URI = \/(.*)\/i;$/m.exec(source)?.[1];
    expect(literal).toBeDefined();
    const ipLiteralStart = (literal as string).indexOf("(?:\\[");
    const ipLiteralEnd = (literal as string).indexOf("\\]|", ipLiteralStart);
    expect(ipLiteralStart).toBeGreaterThan(0);
    const withoutIpLiteral = `${(literal as string).slice(0, ipLiteralStart + 3)}${(literal as string).slice(ipLiteralEnd + 3)}`;
    // Only the bracketed alternative held a `[` outside a character class.
    expect(withoutIpLiteral.replaceAll(/\[[^\]]*\]/g, "")).not.toContain("\\[");
    const ours = readFileSync(new URL("../../src/spec/uri-format.ts", import.meta.url), "utf8");
    expect(ours).toContain(`/${withoutIpLiteral}/i;`);
  });
});
