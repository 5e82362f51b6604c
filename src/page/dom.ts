// The project compiles for Node (lib ES2023, no DOM): adding the DOM lib would retype fetch,
// Headers and friends for every other file. The page therefore types the few DOM members it
// uses here, and reaches the browser's objects through globalThis.

/** An element of the page, as far as the page uses it. */
export interface PageElement {
  textContent: string | null;
  disabled: boolean;
  readonly dataset: Record<string, string | undefined>;
  setAttribute(name: string, value: string): void;
  append(...children: (PageElement | string)[]): void;
  replaceChildren(...children: (PageElement | string)[]): void;
  addEventListener(type: "click", listener: () => void): void;
  querySelector(selector: string): PageElement | null;
  focus(): void;
}

interface PageDocument {
  title: string;
  createElement(tag: string): PageElement;
  getElementById(id: string): PageElement | null;
  querySelector(selector: string): (PageElement & { content?: string }) | null;
}

interface PageWindow {
  document: PageDocument;
  location: { search: string; origin: string };
}

/** The browser window; only touched once the page runs in a browser. */
export const browser = () => globalThis as unknown as PageWindow;

export type Child = PageElement | string | null | undefined | false;
type Attributes = Record<string, string | boolean | undefined>;

const present = (child: Child): child is PageElement | string =>
  child !== null && child !== undefined && child !== false;

/**
 * Creates an element with attributes and children. Text is always set as text, never parsed as
 * HTML, so values from the server (references, addresses) cannot inject markup.
 */
export function h(tag: string, attributes: Attributes = {}, ...children: Child[]): PageElement {
  const element = browser().document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : value);
  }
  element.append(...children.filter(present));
  return element;
}

/** The element with this id; the shell and the views always create the ones asked for. */
export function byId(id: string): PageElement {
  const element = browser().document.getElementById(id);
  if (!element) throw new Error(`the page has no element #${id}`);
  return element;
}

/** Says a status message through the page's polite live region. */
export function announce(message: string): void {
  byId("status").textContent = message;
}

/** Replaces the page's content below the title, and sets the title (heading and tab). */
export function showView(title: string, ...content: Child[]): void {
  byId("page-title").textContent = title;
  browser().document.title = `${title} · Secure payment`;
  byId("content").replaceChildren(...content.filter(present));
}

/** An address in full, in a monospace element that wraps: shortened addresses invite look-alikes. */
export const address = (value: string) => h("code", { class: "address" }, value);
