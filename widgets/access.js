// Keyboard and screen-reader help for a hatskit table (one per table, drawn as nothing).
//
// ipywidgets' buttons are named by their text, so a card reads its symbol and value or a square "△" and an
// empty square nothing. Their tooltip already says what they are ("<card> in your hand",
// "e4: White, hatted"), so each card and square is named by its tooltip (aria-label; a button
// with words, "first" or "hint", keeps them as its name, its tooltip as its description), and a
// picked-up card or piece says so (aria-pressed). The message line is a live region, the move
// slider is named. The first table of the page gets a skip link, the page's first stop.
// The Sombrero board (.hk-sb-grid) is one tab stop: arrow keys move between its squares
// (a roving tabindex), Home/End to the row's ends; Enter and Space press the square.
// A MutationObserver keeps all this true as the kernel changes tooltips and classes.

const PRESSABLE = ".hk-card, .hk-sq, .hk-hatbtn";

// Each attribute is written only when it differs: a write queues a mutation (and a style check) even when
// the value stays the same, and this runs after every change the kernel makes.
function setAttribute(element, name, value) {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

function label(table) {
  for (const b of table.querySelectorAll(`button:is(${PRESSABLE})`)) {
    if (b.title) setAttribute(b, "aria-label", b.title);
    else if (!b.textContent.trim()) setAttribute(b, "aria-label", "empty");
    setAttribute(b, "aria-pressed", b.classList.contains("hk-selected") ? "true" : "false");
  }
  for (const panel of table.querySelectorAll(".hk-movepanel:not([role])")) {
    // It scrolls, so a keyboard must be able to reach it (axe: scrollable-region-focusable).
    Object.assign(panel, { tabIndex: 0 });
    panel.setAttribute("role", "region");
    panel.setAttribute("aria-label", "moves so far");
  }
  for (const line of table.querySelectorAll(".hk-message, .hk-status")) {
    if (!line.getAttribute("role")) {
      line.setAttribute("role", line.classList.contains("hk-message") ? "log" : "status");
      line.setAttribute("aria-live", "polite");
    }
  }
  for (const handle of table.querySelectorAll(".widget-slider [role=slider]")) {
    if (!handle.getAttribute("aria-label")) handle.setAttribute("aria-label", "move number in the game's history");
  }
  rove(table);
}

// The move list scrolls to the current move. It reads the layout, so it waits for the next frame, when the
// browser lays the page out anyway, instead of forcing a layout of the whole page after every change.
function scrollToCurrentMove(table) {
  const now = table.querySelector(".hk-movelist [aria-current]");
  const list = now && now.closest(".hk-movepanel");
  if (list) list.scrollTop = Math.max(0, now.offsetTop - list.offsetTop - list.clientHeight / 2);
}

function squares(grid) {
  return [...grid.querySelectorAll("button.hk-sq")];
}

function rove(table) {
  for (const grid of table.querySelectorAll(".hk-sb-grid")) {
    const all = squares(grid);
    if (!all.length) continue;
    setAttribute(grid, "role", "group");
    setAttribute(grid, "aria-label", "the board: arrow keys move between squares, Enter or Space presses one");
    const current = all.find((b) => b.tabIndex === 0 && b.dataset.hkRove) || all[all.length - 8] || all[0];
    for (const b of all) {
      if (!b.dataset.hkRove) b.dataset.hkRove = "1";
      setAttribute(b, "tabindex", b === current ? "0" : "-1");
    }
  }
}

const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function onKey(event) {
  const b = event.target.closest && event.target.closest("button.hk-sq");
  const grid = b && b.closest(".hk-sb-grid");
  if (!grid) return;
  const all = squares(grid);
  const at = all.indexOf(b);
  let [col, row] = [at % 8, Math.floor(at / 8)];
  if (event.key in STEPS) {
    const [dc, dr] = STEPS[event.key];
    [col, row] = [Math.min(7, Math.max(0, col + dc)), Math.min(7, Math.max(0, row + dr))];
  } else if (event.key === "Home" || event.key === "End") {
    col = event.key === "Home" ? 0 : 7;
  } else {
    return;
  }
  event.preventDefault();
  const next = all[row * 8 + col];
  for (const s of all) s.tabIndex = s === next ? 0 : -1;
  next.focus();
}

function skipLink() {
  if (document.querySelector(".hk-skip")) return;
  const link = document.createElement("a");
  link.className = "hk-skip";
  link.href = "#hk-play-table";
  link.textContent = "Skip to the game table";
  link.addEventListener("click", (event) => {
    event.preventDefault();
    const table = document.querySelector(".hk-table.hk-main") || document.querySelector(".hk-table");
    const area = table && (table.querySelector(".hk-area") || table);
    if (!area) return;
    area.id = "hk-play-table";
    area.tabIndex = -1;
    area.scrollIntoView({ block: "start" });
    area.focus();
  });
  document.body.prepend(link);
}

function render({ el }) {
  // The table is drawn around this element; wait a frame for it to be attached.
  const start = () => {
    const table = el.closest(".hk-table");
    if (!table) return requestAnimationFrame(start);
    let scrollPending = false;
    const update = () => {
      label(table);
      if (scrollPending) return;
      scrollPending = true;
      requestAnimationFrame(() => {
        scrollPending = false;
        scrollToCurrentMove(table);
      });
    };
    update();
    table.addEventListener("keydown", onKey);
    const watch = new MutationObserver(update);
    watch.observe(table, { subtree: true, childList: true, attributes: true, attributeFilter: ["title", "class"] });
    skipLink();
    return () => watch.disconnect();
  };
  requestAnimationFrame(start);
}

export default { render };
