import type { Request, Response } from "express";
import { OpenApiValidator } from "express-openapi-validator/dist/openapi.validator.js";
import { describe, expect, it } from "vitest";
import { type CompiledResponses, createResponseCheck } from "../../src/server/http/response-check.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const problem = json({
  type: "object",
  required: ["title", "status"],
  properties: { title: { type: "string" }, status: { type: "integer" } },
});
const responsesOf = {
  "/colours": { "200": json({ type: "array", items: { type: "string" } }), default: problem },
  "/sizes": { "200": json({ type: "object", required: ["size"] }), default: problem },
};
const document = {
  openapi: "3.1.0",
  info: { title: "two operations", version: "1" },
  paths: Object.fromEntries(
    Object.entries(responsesOf).map(([path, responses]) => [path, { get: { responses } }]),
  ),
};

/** The response checks of both operations, made as the server makes them, sharing `compiled`. */
function checksSharing(compiled: CompiledResponses) {
  const validator = new OpenApiValidator({
    apiSpec: document as never,
    validateResponses: { allErrors: true },
  });
  return Object.entries(responsesOf).map(([path, responses], index) =>
    createResponseCheck(document, {
      ajv: validator.ajvOpts.response,
      validateResponses: validator.options.validateResponses,
      serial: index,
      responses,
      compiled,
      cacheKey: `GET-${path}`,
    }),
  );
}

/** Runs `check` on an answer of `status` with `body`; the validator's error message, or "passed". */
function verdict(check: ReturnType<typeof createResponseCheck>, status: number, body: unknown): string {
  const req = { originalUrl: "/", headers: {} } as Request;
  const res = { statusCode: status, getHeader: () => "application/json" } as unknown as Response;
  try {
    check.check(req, res, body);
    return "passed";
  } catch (error) {
    return (error as Error).message;
  }
}

describe("response checks", () => {
  it("compile a response that operations answer alike once, and check it for each of them", () => {
    const compiled: CompiledResponses = new Map();
    const [colours, sizes] = checksSharing(compiled) as [
      ReturnType<typeof createResponseCheck>,
      ReturnType<typeof createResponseCheck>,
    ];
    colours.compile();
    expect(compiled.size).toBe(2);
    sizes.compile();
    // The two successes, and the one error answer both operations give.
    expect(compiled.size).toBe(3);

    for (const check of [colours, sizes]) {
      expect(verdict(check, 404, { title: "Not Found", status: 404 })).toBe("passed");
      expect(verdict(check, 404, { title: "Not Found" })).toBe(
        "/response must have required property 'status'",
      );
    }
    expect(verdict(colours, 200, ["red"])).toBe("passed");
    expect(verdict(colours, 200, [1])).toBe("/response/0 must be string");
    expect(verdict(sizes, 200, { size: "M" })).toBe("passed");
    expect(verdict(sizes, 200, {})).toBe("/response must have required property 'size'");
  });
});
