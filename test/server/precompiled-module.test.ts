import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { precompiledRequestsFor } from "../../src/server/http/precompiled-requests.ts";
import { precompiledResponsesFor } from "../../src/server/http/precompiled-responses.ts";
import { bundledSpecFile, loadBundledSpec } from "../../src/spec/spec-document.ts";

const spec = loadBundledSpec();
const modules = { "response schemas": precompiledResponsesFor, "request schemas": precompiledRequestsFor };

describe.each(Object.entries(modules))("the %s npm run build compiled", (_name, precompiledFor) => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "payreq-precompiled-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("serve the bundled spec, from the file they were compiled from or a copy of it", () => {
    expect(precompiledFor(spec)).toBeDefined();
    const same = path.join(scratch, "same.json");
    writeFileSync(same, readFileSync(bundledSpecFile));
    expect(precompiledFor(spec, same)).toBeDefined();
  });

  it("are left unused for another spec, even an equal copy of the bundled one", () => {
    expect(precompiledFor(structuredClone(spec))).toBeUndefined();
  });

  it("are left unused when the bundled spec's file is not the one they were compiled from", () => {
    const changed = path.join(scratch, "changed.json");
    writeFileSync(changed, `${readFileSync(bundledSpecFile, "utf8")}\n`);
    expect(precompiledFor(spec, changed)).toBeUndefined();
  });
});
