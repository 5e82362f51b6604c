import { createServer, IncomingMessage, type Server, ServerResponse } from "node:http";
import type { Express } from "express";

interface MessageClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse<IncomingMessage>;
}

/** Each app's classes, made once: every server of the app creates the same two. */
const classesOfApp = new WeakMap<Express, MessageClasses>();

/**
 * An HTTP server for `app` that creates its requests and responses as instances of classes whose
 * prototypes are the app's own (`app.request`, `app.response`).
 *
 * Express gives each request and response the app's prototype as it comes in
 * (`Object.setPrototypeOf`), and V8 then makes each of them a hidden class of its own: every read
 * or write of their properties in code that sees many requests misses V8's caches and takes its
 * slow path, some seventy times a POST here. Created with that prototype, they share one hidden
 * class, and Express's `setPrototypeOf` finds nothing to change. A request that comes through
 * another server (a test's, say) still gets its prototype from Express, as before.
 */
export function createExpressHttpServer(app: Express, options: { requestTimeoutMs: number }): Server {
  let classes = classesOfApp.get(app);
  if (!classes) {
    classes = messageClassesOf(app);
    classesOfApp.set(app, classes);
  }
  return createServer(
    {
      ...classes,
      // A request that has not arrived in full by then, body included, is answered 408
      // (client-errors.ts); node:http looks at its connections this often.
      requestTimeout: options.requestTimeoutMs,
      headersTimeout: Math.min(options.requestTimeoutMs, 60_000),
      connectionsCheckingInterval: Math.min(1_000, options.requestTimeoutMs),
    },
    app,
  );
}

function messageClassesOf(app: Express): MessageClasses {
  class ExpressRequest extends IncomingMessage {}
  class ExpressResponse extends ServerResponse {}
  adoptPrototype(ExpressRequest.prototype, app.request);
  adoptPrototype(ExpressResponse.prototype, app.response);
  app.request = ExpressRequest.prototype as Express["request"];
  app.response = ExpressResponse.prototype as unknown as Express["response"];
  return { IncomingMessage: ExpressRequest, ServerResponse: ExpressResponse };
}

/** Gives `target` the prototype and the own members (the `app` Express sets) of `appPrototype`. */
function adoptPrototype(target: object, appPrototype: object): void {
  Object.setPrototypeOf(target, Object.getPrototypeOf(appPrototype));
  const { constructor: _constructor, ...members } = Object.getOwnPropertyDescriptors(appPrototype);
  Object.defineProperties(target, members);
}
