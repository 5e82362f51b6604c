import { describe, expect, it } from "vitest";
import { isWildcardAddress, reachableUrlHost } from "../../src/server/reachable-host.ts";

describe("reachableUrlHost", () => {
  it.each([
    ["0.0.0.0", "127.0.0.1"],
    ["::", "[::1]"],
    ["[::]", "[::1]"],
    ["0:0:0:0:0:0:0:0", "[::1]"],
    ["127.0.0.1", "127.0.0.1"],
    ["192.168.1.5", "192.168.1.5"],
    ["::1", "[::1]"],
    ["fe80::1", "[fe80::1]"],
    ["localhost", "localhost"],
  ])("writes %s as %s in a URL", (bindAddress, host) => {
    expect(reachableUrlHost(bindAddress)).toBe(host);
  });

  it("knows the wildcard addresses", () => {
    expect(["0.0.0.0", "::", "[::]", "::0"].map(isWildcardAddress)).toEqual([true, true, true, true]);
    expect(["127.0.0.1", "::1", "localhost", "0.0.0.1"].map(isWildcardAddress)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
