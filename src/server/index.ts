export { type Clock, createFixedClock, SandboxClock, systemClock } from "./clock.ts";
export { ConfigError, loadConfigFile, parseConfig } from "./config/load-config.ts";
export {
  type AccountConfig,
  type ClientIdConfig,
  createDefaultConfig,
  type SandboxConfig,
  sampleCredentials,
  type WebhookEndpointConfig,
} from "./config/sandbox-config.ts";
export {
  type CreateServerOptions,
  createServer,
  type PayreqServer,
  type RunningServer,
} from "./create-server.ts";
export { buildProblem, type ProblemBody, type ProblemKind, problemCatalogue } from "./problems.ts";
export type { ServerLogger } from "./server-logger.ts";
export {
  createMemoryStore,
  type MemoryStore,
  type MemoryStoreOptions,
  type MemoryStoreSnapshot,
} from "./store/memory-store.ts";
export { createPostgresStore, type PostgresStoreOptions } from "./store/postgres/postgres-store.ts";
export type * from "./store/records.ts";
export type { Store, StoreOperations, StoreOwnOperations } from "./store/store.ts";
export type { StoreTable } from "./store/table-declaration.ts";
export type { RecordTables, StoreTableName } from "./store/tables.ts";
export type { WebhookDispatcher } from "./webhook-delivery/dispatcher.ts";
export { timerScheduler, type WebhookScheduler } from "./webhook-delivery/scheduler.ts";
