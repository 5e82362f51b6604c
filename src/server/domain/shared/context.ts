import type { PaymentContracts } from "../../../chain/index.ts";
import type { SessionCookieWriter } from "../../auth/session-cookie.ts";
import type { Clock, SandboxClock } from "../../clock.ts";
import type { Store } from "../../store/store.ts";
import type { WebhookTargetAllowList } from "../../webhook-delivery/target-allow-list.ts";
import type { FaultBook } from "./fault-book.ts";

/** What domain operations need: storage, time, the contract table and the public URLs. */
export interface DomainContext extends ServerContext {
  /** The caller's account's sandbox clock, which every time decision reads; the sandbox API moves it. */
  clock: SandboxClock;
  /** The answer's session cookie, for the operations that sign in and out. */
  cookies: SessionCookieWriter;
}

/** What the server gives every operation, whoever calls. */
export interface ServerContext {
  store: Store;
  /** The time source every account's sandbox clock runs on, each with its own offset. */
  baseClock: Clock;
  /** Contracts to use instead of the official ones, by network (local deployments, EVM tests). */
  contractOverrides: Readonly<Partial<Record<string, PaymentContracts>>>;
  securePaymentLifetimeSeconds: number;
  /** The server's public origin, such as `http://127.0.0.1:3000`; known once it listens. */
  publicOrigin(): string;
  /** The hosted payment page; `securePaymentUrl` is this URL with the `token` query parameter. */
  securePaymentPageUrl(): string;
  webhooks: WebhookContext;
  auth: AuthContext;
  faults: FaultContext;
}

/** The sandbox's faults (`/sandbox/faults`), kept in this server's memory. */
export interface FaultContext {
  book: FaultBook;
  /** The operationIds a fault may name: every operation of the spec but the fault ones. */
  faultableOperationIds: ReadonlySet<string>;
}

/** The Auth API's settings. */
export interface AuthContext {
  /** The session cookie's name, from the spec. */
  sessionCookie: string;
  /** How long a session lasts after signing in. */
  sessionLifetimeSeconds: number;
  /** How long a wallet sign-in challenge may be answered. */
  walletChallengeLifetimeSeconds: number;
}

/** What the sandbox's webhook operations need from the delivery worker and the configuration. */
export interface WebhookContext {
  /** Targets let through the address guard, which refuses every other non-public address. */
  allowList: WebhookTargetAllowList;
  /** The most endpoints one account may have. */
  maxEndpointsPerAccount: number;
  /** Sends a pending delivery now (or once the worker runs). */
  enqueue(deliveryId: string): void;
}
