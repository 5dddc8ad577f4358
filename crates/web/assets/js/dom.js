// The page's small DOM helpers: elements by id, HTML and SVG elements, the toast, the clipboard.

export const $ = (id) => document.getElementById(id);
export const SVG = "http://www.w3.org/2000/svg";
export const SEAT_COLOURS = ["var(--x)", "var(--o)", "var(--p3)", "var(--p4)"];
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}


export let toastTimer = null;
export function toast(message) {
  const box = $("toast");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), 4500);
}

// Whether keys go to a text field (a slider or a check box takes none of the page's keys).
export const typing = () => {
  const el = document.activeElement;
  if (!el) return false;
  if (el.tagName === "INPUT") return !["range", "checkbox", "radio", "button", "submit"].includes(el.type);
  return el.tagName === "TEXTAREA" || el.tagName === "SELECT";
};

export const narrow = () => window.matchMedia("(max-width: 600px)").matches;


// Copies `text` to the clipboard (a hidden text area where the Clipboard API is refused).
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (error) {
    const area = h("textarea", {}, text);
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}
