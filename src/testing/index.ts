// `payreq/testing`: a reference server in the test process, for integrators' test suites.
export type {
  CapturedWebhook,
  CapturedWebhooks,
  Sandbox,
  SandboxOptions,
  TriggerableEvent,
  TriggerOptions,
} from "./sandbox-types.ts";
export { startSandbox } from "./start-sandbox.ts";
