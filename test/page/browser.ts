import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { startTestServer, type TestServer } from "../server/helpers.ts";
import { describeUnless } from "../support/describe-unless.ts";
import { addFakeWallet, type FakeWalletOptions } from "./fake-wallet.ts";

/**
 * Debian's Chromium builds, the headless shell first: it renders pages the same, without the
 * full browser's extensions, component services and per-page processes, and a page of these tests
 * costs it a quarter of the CPU. CHROMIUM_PATH names another. `npx playwright install` cannot run
 * here.
 */
const debianChromiumPaths = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"];

/** The browser the tests launch: CHROMIUM_PATH, else the first of Debian's builds installed. */
export const chromiumPath =
  process.env.CHROMIUM_PATH ??
  debianChromiumPaths.find((candidate) => existsSync(candidate)) ??
  (debianChromiumPaths[0] as string);

/**
 * Why the browser tests cannot run here, or undefined when they can. Only a developer machine
 * without Chromium skips them; in CI (CI set) a missing Chromium fails them instead.
 */
export const browserSkipReason: string | undefined =
  existsSync(chromiumPath) || process.env.CI
    ? undefined
    : `Chromium is not installed at ${chromiumPath}; install Debian's chromium-headless-shell or set CHROMIUM_PATH`;

/** `describe` for tests that need Chromium: skipped, with the reason in its name, when there is none. */
export function describeInBrowser(name: string, tests: () => void): void {
  describeUnless(browserSkipReason, name, tests);
}

export const screenshotDir = path.resolve("test-results", "screenshots");

/**
 * Launches headless Chromium. Playwright gives every launch a fresh temporary profile
 * (user-data-dir) and removes it on close.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `Chromium is not installed at ${chromiumPath}: run \`apt-get install -y chromium-headless-shell\` (Debian) or set CHROMIUM_PATH.`,
    );
  }
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    chromiumSandbox: false,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
    ],
  });
}

export interface PayerPage {
  context: BrowserContext;
  page: Page;
  /** Errors the page's scripts threw or logged; a test expects none. */
  pageErrors: string[];
}

/**
 * A fresh browser context (UK English, UTC, so dates read the same everywhere), with the fake
 * wallet installed unless `wallet` is null.
 */
export async function openPayerPage(browser: Browser, wallet: FakeWalletOptions | null): Promise<PayerPage> {
  const context = await browser.newContext({
    locale: "en-GB",
    timezoneId: "UTC",
    viewport: { width: 900, height: 900 },
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(message.text());
  });
  if (wallet) await addFakeWallet(page, wallet);
  return { context, page, pageErrors };
}

/** A test server and Chromium shared by one test file's browser tests. */
export interface BrowserAndServer {
  readonly server: TestServer;
  readonly browser: Browser;
  /** A fresh payer page (see `openPayerPage`), closed after the test that opened it. */
  openPage(wallet: FakeWalletOptions | null): Promise<PayerPage>;
}

/**
 * Starts a test server (`startServer`, a plain test server by default) and Chromium before the
 * file's tests, unless the browser tests are skipped, and closes them after them. A page opened
 * through `openPage` closes after the test that opened it.
 */
export function useBrowserAndServer(
  startServer: () => Promise<TestServer> = startTestServer,
): BrowserAndServer {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  const opened: PayerPage[] = [];
  beforeAll(async () => {
    if (browserSkipReason) return;
    [server, browser] = await Promise.all([startServer(), launchChromium()]);
  });
  // Each test's pages close after it: open pages keep rendering and running their timers.
  const closeOpened = () => Promise.all(opened.splice(0).map((payerPage) => payerPage.context.close()));
  afterEach(closeOpened);
  afterAll(async () => {
    await closeOpened();
    await Promise.all([browser?.close(), server?.close()]);
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined)
      throw new Error("the test server and browser start in beforeAll; use them in tests");
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get browser() {
      return started(browser);
    },
    async openPage(wallet) {
      const payerPage = await openPayerPage(started(browser), wallet);
      opened.push(payerPage);
      return payerPage;
    },
  };
}

export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}

/** The payment details as shown: each `<dt>` with its `<dd>` text. */
export async function shownDetails(page: Page): Promise<Record<string, string>> {
  const terms = await page.locator("dl.details > dt").allInnerTexts();
  const values = await page.locator("dl.details > dd").allInnerTexts();
  return Object.fromEntries(terms.map((term, index) => [term, values[index] ?? ""]));
}

/** The text of the element with this CSS selector, as rendered. */
export function textOf(page: Page, selector: string): Promise<string> {
  return page.locator(selector).innerText();
}
