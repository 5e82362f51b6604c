import type { ReceivedDelivery } from "../cli/webhooks/webhook-listener.ts";
import type { CapturedWebhook, CapturedWebhooks } from "./sandbox-types.ts";

type Match = (delivery: CapturedWebhook) => boolean;

/** The deliveries received, and the waits for one still to come. */
export class DeliveryLog {
  readonly received: CapturedWebhook[] = [];
  private readonly waiting = new Set<{ match: Match; resolve(delivery: CapturedWebhook): void }>();

  record(delivery: ReceivedDelivery): void {
    const captured: CapturedWebhook = {
      receivedAt: delivery.receivedAt,
      event: delivery.event,
      requestId: delivery.requestId,
      deliveryId: delivery.deliveryId,
      retryCount: delivery.retryCount,
      test: delivery.test,
      signatureValid: delivery.signature.ok,
      payload: delivery.payload,
      rawBody: delivery.rawBody,
    };
    this.received.push(captured);
    for (const wait of this.waiting) {
      if (wait.match(captured)) {
        this.waiting.delete(wait);
        wait.resolve(captured);
      }
    }
  }

  waitFor(match: Match, description: string, timeoutMs: number): Promise<CapturedWebhook> {
    const found = this.received.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const wait = {
        match,
        resolve: (delivery: CapturedWebhook) => {
          clearTimeout(timer);
          resolve(delivery);
        },
      };
      const timer = setTimeout(() => {
        this.waiting.delete(wait);
        reject(
          new Error(
            `no webhook ${description} arrived within ${timeoutMs} ms (${this.received.length} received)`,
          ),
        );
      }, timeoutMs);
      this.waiting.add(wait);
    });
  }
}

/** The sandbox's view of the capture receiver; without one (`captureWebhooks: false`) each method throws. */
export function createCapturedWebhooks(
  endpoint: { url: string; endpointId: string; secret: string } | undefined,
  log: DeliveryLog,
): CapturedWebhooks {
  const off = () => {
    throw new Error("webhooks are not captured: the sandbox was started with captureWebhooks: false");
  };
  if (!endpoint) {
    return {
      get url(): string {
        return off();
      },
      get endpointId(): string {
        return off();
      },
      get secret(): string {
        return off();
      },
      received: off,
      waitFor: off,
      clear: off,
    };
  }
  return {
    ...endpoint,
    received: () => [...log.received],
    waitFor: (match, options = {}) =>
      log.waitFor(
        typeof match === "string" ? (delivery) => delivery.event === match : match,
        typeof match === "string" ? `"${match}"` : "matching the predicate",
        options.timeoutMs ?? 10_000,
      ),
    clear: () => {
      log.received.length = 0;
    },
  };
}
