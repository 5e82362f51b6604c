import { describe, expect, it } from "vitest";
import { sharedValidators } from "../../src/server/http/openapi-validation.ts";
import { createDefaultConfig } from "../../src/server/index.ts";
import { loadBundledSpec } from "../../src/spec/spec-document.ts";
import { startTestServer, usdcOnBase } from "./helpers.ts";

describe("validators shared by the servers of one process", () => {
  it("are the same set for the same spec and options, and separate sets otherwise", () => {
    const spec = loadBundledSpec();
    const lenient = sharedValidators(spec, { validateResponses: true, strictBodies: false });
    expect(sharedValidators(spec, { validateResponses: true, strictBodies: false })).toBe(lenient);
    expect(sharedValidators(spec, { validateResponses: true, strictBodies: true })).not.toBe(lenient);
    expect(sharedValidators(spec, { validateResponses: false, strictBodies: false })).not.toBe(lenient);
    expect(
      sharedValidators(structuredClone(spec), { validateResponses: true, strictBodies: false }),
    ).not.toBe(lenient);
  });

  it("keep a lenient and a strict server apart: each treats an unknown body member its own way", async () => {
    const strictConfig = createDefaultConfig();
    strictConfig.strictBodies = true;
    const lenient = await startTestServer({ warmUp: false });
    const strict = await startTestServer({ warmUp: false, config: strictConfig });
    try {
      const body = { requests: [usdcOnBase()], unknownMember: 1 };
      const accepted = await lenient.call("POST", "/v2/secure-payments", { body });
      const refused = await strict.call("POST", "/v2/secure-payments", { body });
      const acceptedAgain = await lenient.call("POST", "/v2/secure-payments", { body });
      expect([accepted.status, refused.status, acceptedAgain.status]).toEqual([201, 400, 201]);
      expect(JSON.stringify(refused.body)).toContain("unknownMember");
    } finally {
      await Promise.all([lenient.close(), strict.close()]);
    }
  });
});
