// Evaluated in the page: the WCAG 2 contrast ratio of every element that shows text of its own,
// against the first opaque background behind it. Answers {checked, failures}.
(() => {
  const parse = (color) => {
    const [r, g, b, a = 1] = color.match(/[\d.]+/g).map(Number);
    return { r, g, b, a };
  };
  const channel = (value) => {
    const s = value / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = ({ r, g, b }) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const backgroundOf = (element) => {
    for (let node = element; node; node = node.parentElement) {
      const background = parse(getComputedStyle(node).backgroundColor);
      if (background.a > 0) return background;
    }
    return { r: 255, g: 255, b: 255, a: 1 };
  };
  const failures = [];
  let checked = 0;
  for (const element of document.body.querySelectorAll("*")) {
    const ownText = [...element.childNodes]
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent.trim())
      .join("");
    const style = getComputedStyle(element);
    if (ownText === "" || style.visibility === "hidden" || element.getClientRects().length === 0) continue;
    const foreground = luminance(parse(style.color));
    const background = luminance(backgroundOf(element));
    const ratio = (Math.max(foreground, background) + 0.05) / (Math.min(foreground, background) + 0.05);
    const size = Number.parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    checked += 1;
    if (ratio < (large ? 3 : 4.5))
      failures.push({ text: ownText.slice(0, 60), ratio: Math.round(ratio * 100) / 100 });
  }
  return { checked, failures };
})();
