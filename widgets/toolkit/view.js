// The library of the tables: one hatskit view (a game's table, an exercise) is the tree of parts the kernel
// syncs as `tree`, drawn here. It knows parts, never games.
//
// Each part keeps its element from one change to the next (found by the part's id), and only what changed is
// written, so focus, typing and the race pad's stopwatch survive a move. What the reader does goes back as one
// message naming the part: {id, move} when a press completes one of the moves the kernel offered (picking up
// is done here, `picker`), {id, path} for presses that made none, {id, do: "click"}, {id, value}, or {id, msg}
// for a part with code of its own. The rules every view shares live here once: a card or square is named by its
// tooltip and says when it is picked up (aria-pressed); the message line is a live region; the move list
// scrolls to the current move; a row of choice pills is one tab stop with the arrow keys inside; a fold's summary
// says whether it is open (aria-expanded); the page's first table gets a skip link; cards glide where they went.
// The page's other ES modules are imported by the loader (widgets/toolkit/ui.py, LOADER) and handed here (`use`):
// a custom part's (the race pad, the clipboard, the progress bar) exports an anywidget-style
// render({ model, el, motion }) on the part's own traits, `motion` being the table's own ways to carry and glide
// a card (PART_MOTION); a game's (sombrero.js, hats.js) exports `table`, the hooks of what only it draws.

const PARTS = {}; // a custom part's render, by its module's file name ("race.js")
const TABLES = []; // the table modules' hooks ("sombrero.js"): keys, drawn, before/after a draw, turned
const CARDLIKE = ["hk-cardbtn", "hk-sq"];
const BASE = {
  hbox: "hk-box hk-hbox",
  vbox: "hk-box hk-vbox",
  grid: "hk-box hk-grid",
  fold: "hk-fold",
  html: "hk-html",
  button: "jupyter-widgets jupyter-button widget-button hk-btn",
  toggle: "jupyter-widgets jupyter-button widget-button hk-btn hk-toggle",
  text: "hk-field",
  number: "hk-field",
  choices: "hk-field hk-choices",
  picks: "hk-field hk-choices",
  slider: "hk-field hk-slider",
  custom: "hk-custom",
  moves: "hk-moves",
};
const PILLS = new Set(["choices", "picks"]); // the kinds drawn as rows of pills (one chosen, or some)
const SAME = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// Every write is made only when it changes something: a write queues a mutation and a style check even when
// the value stays the same, and a table is drawn again after every move.
function attr(element, name, value) {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

function prop(element, name, value) {
  if (element[name] !== value) element[name] = value;
}

function field(input) {
  const label = document.createElement("label");
  const name = document.createElement("span");
  name.className = "hk-fieldname";
  label.append(name, input);
  return label;
}

// A fold is <details>: its <summary> (a button's look) opens it by click, Enter or Space, and its parts go in
// a box below it. The reader's opening or closing is told to the kernel, which sends each value back: those
// echoes are not drawn (a reader who opens, closes and opens again quickly is not shut out by the first two),
// while the kernel's own change (Start folds the set-up) is.
function fold(item, id, send) {
  item.shown = false; // open or closed as last drawn or last told to the kernel
  item.echoes = []; // what the reader told the kernel, its answers still to come
  item.el = document.createElement("details");
  item.summary = document.createElement("summary");
  item.summary.className = "jupyter-widgets jupyter-button widget-button hk-btn hk-summary";
  item.box = document.createElement("div");
  item.box.className = "hk-box hk-fold-body";
  item.el.append(item.summary, item.box);
  item.el.addEventListener("toggle", () => {
    attr(item.summary, "aria-expanded", String(item.el.open));
    if (item.el.open === item.shown) return; // the kernel's change, drawn
    item.shown = item.el.open;
    item.echoes.push(item.shown);
    send(id, { value: item.shown });
  });
}

// A row of choice pills (widgets/toolkit/ui.py Choices) is a radio group: one Tab stop, on the chosen pill; the arrow keys
// move the choice and send it at once, as a radio group does (Home and End: the first and the last), and a click
// or Enter or Space chooses. The kernel's answer marks the chosen pill (aria-checked). Pills of which some are
// chosen (Picks) are check boxes: each its own Tab stop, pressed by click, Enter or Space, the arrow keys unused.
const PILL_STEPS = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };

function choices(item, id, send) {
  item.el = document.createElement("div");
  item.name = document.createElement("span");
  item.name.className = "hk-fieldname";
  item.pills = document.createElement("div");
  item.pills.className = "hk-pills";
  item.note = document.createElement("div");
  item.note.className = "hk-choicenote";
  item.el.append(item.name, item.pills, item.note);
  item.pills.addEventListener("click", (event) => {
    const pill = event.target.closest("button");
    if (pill && !pill.disabled) send(id, { value: Number(pill.dataset.index) });
  });
  item.pills.addEventListener("keydown", (event) => {
    const pills = [...item.pills.children];
    const at = pills.indexOf(event.target.closest("button"));
    const ends = { Home: 0, End: pills.length - 1 };
    if (at < 0 || item.node.off || item.t === "picks" || !(event.key in PILL_STEPS || event.key in ends)) return;
    event.preventDefault();
    const next = event.key in ends ? ends[event.key] : (at + PILL_STEPS[event.key] + pills.length) % pills.length;
    for (const pill of pills) attr(pill, "tabindex", pill === pills[next] ? "0" : "-1");
    pills[next].focus();
    send(id, { value: next });
  });
}

function pill(text, index, note, role) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "jupyter-widgets jupyter-button widget-button hk-btn hk-pill";
  button.dataset.index = String(index);
  button.textContent = text;
  attr(button, "role", role);
  if (note) button.title = note;
  return button;
}

function drawChoices(item, old, node) {
  const some = node.t === "picks";
  if (old.label !== node.label) item.name.textContent = node.label || "";
  attr(item.pills, "role", node.labels.length && !some ? "radiogroup" : "group"); // a radio group has radios (axe)
  attr(item.pills, "aria-label", node.label || node.tip || "");
  if (!SAME(old.labels, node.labels) || !SAME(old.notes, node.notes)) {
    const role = some ? "checkbox" : "radio";
    item.pills.replaceChildren(...node.labels.map((text, index) => pill(text, index, node.notes[index], role)));
  }
  const pills = [...item.pills.children];
  const stop = pills[node.value] || pills[0];
  pills.forEach((button, index) => {
    attr(button, "aria-checked", String(some ? node.value.includes(index) : index === node.value));
    attr(button, "tabindex", some || button === stop ? "0" : "-1");
    prop(button, "disabled", Boolean(node.off));
  });
  const note = some ? "" : node.notes[node.value] || "";
  if (item.note.textContent !== note) item.note.textContent = note;
  prop(item.note, "hidden", !note);
}

function make(node, send, pick) {
  const item = { t: node.t, node: {} };
  const id = node.id;
  if (node.t === "moves") {
    item.el = document.createElement("div");
    item.el.hidden = true; // data only: the moves the picker offers
  } else if (node.t === "hbox" || node.t === "vbox" || node.t === "grid" || node.t === "html") {
    item.el = document.createElement("div");
  } else if (node.t === "button" || node.t === "toggle") {
    item.el = document.createElement("button");
    item.el.type = "button";
    item.el.dataset.part = String(id);
    item.el.addEventListener("click", () => {
      if (!item.node.off && !pick(id)) send(id, { do: "click" });
    });
  } else if (node.t === "fold") {
    fold(item, id, send);
  } else if (PILLS.has(node.t)) {
    choices(item, id, send);
  } else if (node.t === "custom") {
    item.el = document.createElement("div");
    item.listeners = new Map();
    item.model = {
      get: (name) => item.node.props[name],
      on: (event, callback) => {
        if (!item.listeners.has(event)) item.listeners.set(event, []);
        item.listeners.get(event).push(callback);
      },
      send: (content) => send(id, { msg: content }),
    };
  } else {
    item.input = document.createElement("input");
    item.input.type = { text: "text", number: "number", slider: "range" }[node.t];
    item.el = field(item.input);
    const value = () => {
      if (node.t === "slider") return Number(item.input.value);
      return item.input.value;
    };
    item.input.addEventListener("change", () => send(id, { value: value() }));
  }
  return item;
}

function update(item, node) {
  const old = item.node;
  // Classes change one by one, so those a part's own script adds (the clipboard's "shown") stay.
  const before = old.c ? [...BASE[node.t].split(" "), ...old.c] : [];
  const after = [...BASE[node.t].split(" "), ...node.c];
  for (const name of before) if (!after.includes(name)) item.el.classList.remove(name);
  for (const name of after) if (!item.el.classList.contains(name)) item.el.classList.add(name);
  if (!old.c) roles(item.el, node.c);
  if (old.tip !== node.tip) {
    if (node.tip) item.el.title = node.tip;
    else item.el.removeAttribute("title");
  }
  if (old.css !== node.css) item.el.style.cssText = node.css || "";
  const input = item.input;
  if (node.t === "html" && old.html !== node.html) morph(item.el, node.html);
  if (node.t === "fold") {
    if (old.summary !== node.summary) item.summary.textContent = node.summary;
    if (old.open !== node.open && item.echoes[0] === node.open) {
      item.echoes.shift(); // the kernel repeats what the reader did
    } else if (old.open !== node.open) {
      [item.echoes, item.shown] = [[], Boolean(node.open)];
      prop(item.el, "open", item.shown);
    }
    attr(item.summary, "aria-expanded", String(item.el.open));
    item.summary.classList.toggle("mod-primary", Boolean(node.primary));
  }
  if (node.t === "button" || node.t === "toggle") {
    if (old.text !== node.text || old.face !== node.face) {
      if (node.face) item.el.innerHTML = node.face;
      else item.el.textContent = node.text;
    }
    prop(item.el, "disabled", Boolean(node.off));
    if (Boolean(node.primary) !== item.el.classList.contains("mod-primary")) item.el.classList.toggle("mod-primary");
    if (node.t === "toggle") attr(item.el, "aria-pressed", node.value ? "true" : "false");
    if (CARDLIKE.some((name) => node.c.includes(name))) {
      attr(item.el, "aria-label", node.tip || node.text || "empty");
      attr(item.el, "aria-pressed", node.c.includes("hk-selected") ? "true" : "false");
    }
  }
  if (PILLS.has(node.t)) drawChoices(item, old, node);
  if (input) {
    if (old.label !== node.label) item.el.firstChild.textContent = node.label || "";
    if (!node.label) attr(input, "aria-label", node.tip || "");
    for (const name of ["min", "max", "step", "placeholder"]) {
      if (node[name] !== undefined && old[name] !== node[name]) input[name] = node[name];
    }
    if (old.value !== node.value) input.value = String(node.value);
    prop(input, "disabled", Boolean(node.off));
  }
  item.node = node;
  if (node.t === "custom") {
    for (const [name, value] of Object.entries(node.props)) {
      if (old.props && !SAME(old.props[name], value)) for (const hear of item.listeners.get(`change:${name}`) || []) hear();
    }
  }
}

// An HTML part's new markup is written into the elements it has, not in place of them: what stayed the same
// keeps its element, so a score line's "how?" the reader opened stays open and a focused line keeps the focus
// while the game goes on, and a move list only gains its new line. A <details> keeps the reader's open or shut
// unless the new markup opens it. (morphdom does this and more, keyed lists and forms, which the kernel's
// renderers never write; docs/tables.md says why it is not used.)
function morph(element, html) {
  const next = document.createElement("template");
  next.innerHTML = html;
  morphChildren(element, next.content);
}

function morphChildren(into, from) {
  const wanted = [...from.childNodes];
  wanted.forEach((node, at) => {
    const have = into.childNodes[at];
    if (!have) into.append(node);
    else if (have.nodeName !== node.nodeName || have.namespaceURI !== node.namespaceURI) have.replaceWith(node);
    else if (node.nodeType !== Node.ELEMENT_NODE) prop(have, "nodeValue", node.nodeValue);
    else {
      morphAttributes(have, node);
      morphChildren(have, node);
    }
  });
  while (into.childNodes.length > wanted.length) into.lastChild.remove();
}

function morphAttributes(have, node) {
  for (const { name, value } of node.attributes) attr(have, name, value);
  for (const { name } of [...have.attributes]) {
    const readers = name === "open" && have.localName === "details";
    if (!readers && !node.hasAttribute(name)) have.removeAttribute(name);
  }
}

// Roles a part gets from its class, once: the message line and a lesson's instruction are read out as they change, the move list is a region
// a keyboard can scroll.
function roles(element, classes) {
  if (classes.includes("hk-message") || classes.includes("hk-status") || classes.includes("hk-guide")) {
    attr(element, "role", classes.includes("hk-message") ? "log" : "status");
    attr(element, "aria-live", "polite");
  }
  if (classes.includes("hk-movepanel")) {
    attr(element, "tabindex", "0");
    attr(element, "role", "region");
    attr(element, "aria-label", "moves so far");
  }
}

// The move list keeps the current move in view. It reads the layout, so it waits for the next frame, when the
// browser lays the page out anyway.
function scrollToCurrentMove(el) {
  requestAnimationFrame(() => {
    const now = el.querySelector(".hk-movelist [aria-current]");
    const list = now && now.closest(".hk-movepanel");
    if (list) list.scrollTop = Math.max(0, now.offsetTop - list.offsetTop - list.clientHeight / 2);
  });
}

// A row that scrolls sideways (a phone's row of lessons, widgets/toolkit/style.py) shows its chosen button (hk-selected)
// when the choice changes; the reader's own scrolling is left alone until the next change. Read in the next frame.
function showChosen(el) {
  requestAnimationFrame(() => {
    for (const chosen of el.querySelectorAll(".hk-selected")) {
      const row = chosen.parentElement;
      if (row.scrollWidth <= row.clientWidth || row.dataset.hkShown === chosen.dataset.part) continue;
      row.dataset.hkShown = chosen.dataset.part;
      const [box, within] = [chosen.getBoundingClientRect(), row.getBoundingClientRect()];
      row.scrollLeft += box.left - within.left - (within.width - box.width) / 2;
    }
  });
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

// -- moves you can watch: a card that is somewhere else after a change slides there from where it was, and a
// board's piece steps from its old square to its new one ---------------------------------------------------
// A card is known by its notation (".hk-card" data-hk-card such as "♥5"), a back by its seat and its label
// ("hidden card", "black hat"). Where one card is shown more than once (two Berets), the page cannot tell
// which twin went where, so they are paired nearest first, the fewest and shortest moves: a twin that stayed put pairs
// with itself, one shifted along its row pairs with its old place, and what is left is the one that moved
// (pairing by order on the page would slide every twin after a new one). The one exception is the card the
// reader picked up: it was sent somewhere, so it is seen to go even where a twin takes its place. A card left
// over on each side, one only, is one card that changed what it shows: a bot's hat leaves its hand as a back and
// lands face up in an inventory, another seat's hand card becomes a black hat (a back of another label). A card
// that turned over (Hats' black hats, TURNED) turns as it goes. The kernel sends no animation, only the next
// position, so stepping back through the history plays every move backwards.

const MOTION_MS = 320;
// A card turned over: its class is a table module's (`turned`, Hats' black hat), drawn face down to everyone else.
const isTurned = (card) => TABLES.some((table) => table.turned && card.classList.contains(table.turned));
const stillWanted = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// Every card that can move, by its notation, in page order: not those of the move list, the score sheet, the
// message line or a part's own script.
function cardsByKey(el) {
  const keyed = new Map();
  const seats = [...el.querySelectorAll(".hk-seat")];
  for (const card of el.querySelectorAll(".hk-card")) {
    if (card.closest(".hk-custom, .hk-movepanel, .hk-scorepanel, .hk-message")) continue;
    const key = cardKey(card, seats);
    if (!key) continue;
    if (!keyed.has(key)) keyed.set(key, []);
    keyed.get(key).push(card);
  }
  return keyed;
}

// A face is its notation; a back shows nothing but its label, so backs are told apart by seat and label only.
function cardKey(card, seats) {
  if (!card.classList.contains("hk-back")) return card.dataset.hkCard;
  return `back ${seats.indexOf(card.closest(".hk-seat"))} ${card.title}`;
}

function cardRects(el) {
  const keyed = new Map();
  for (const [key, cards] of cardsByKey(el)) {
    keyed.set(
      key,
      cards.map((card) => ({
        rect: card.getBoundingClientRect(),
        turned: isTurned(card),
        picked: Boolean(card.closest(".hk-selected")),
      })),
    );
  }
  return keyed;
}

// How far a card went from where it was to `rect`; a card the reader picked up was sent somewhere, so it is the
// last to be taken for a twin that stayed where it was.
function distance(from, rect) {
  const far = Math.hypot(from.rect.left - rect.left, from.rect.top - rect.top);
  return from.picked && far < 2 ? Infinity : far;
}

// Pairs the cards of one text now with where cards of that text were, nearest first; returns the pairs and
// what is left on each side.
function pairNearest(then, now) {
  const rects = now.map((card) => card.getBoundingClientRect());
  const pairs = [];
  then.forEach((from, i) => rects.forEach((rect, j) => pairs.push([distance(from, rect), i, j])));
  pairs.sort((a, b) => a[0] - b[0]);
  const [usedThen, usedNow, moves] = [new Set(), new Set(), []];
  for (const [, i, j] of pairs) {
    if (usedThen.has(i) || usedNow.has(j)) continue;
    [usedThen, usedNow].forEach((used, side) => used.add(side ? j : i));
    moves.push({ from: then[i], card: now[j], to: rects[j] });
  }
  const left = then.filter((_, i) => !usedThen.has(i));
  const arrived = now.filter((_, j) => !usedNow.has(j));
  return { moves, left, arrived };
}

function cardMoves(before, el) {
  const [moves, left, arrived] = [[], [], []];
  const now = cardsByKey(el);
  for (const [key, cards] of now) {
    const paired = pairNearest(before.get(key) || [], cards);
    moves.push(...paired.moves);
    left.push(...paired.left);
    arrived.push(...paired.arrived);
  }
  for (const [key, then] of before) if (!now.has(key)) left.push(...then);
  if (left.length === 1 && arrived.length === 1) {
    moves.push({ from: left[0], card: arrived[0], to: arrived[0].getBoundingClientRect() });
  }
  return moves;
}

// Each card's slide under way (a card may be sent on before it lands: a bot's move right after the reader's).
const trips = new WeakMap();

// Draws `card` from where it was to where it is now (centre to centre, its old size growing or shrinking to its
// new one), above what it passes (z-index, higher the further it goes, so a card shifting along its row passes
// under one crossing the table), turning over on the way if it turned; the card already stands where the move
// put it, so the move itself shows at once. The slide animates the `translate` and `scale` properties and the
// turn `rotate`, so the card turns about its own middle wherever it is on the way. A card still on its way
// starts the new slide from where it is seen (`from` was measured with the old slide's offset) and its old slide
// ends: two slides of one property on one element are both played on the page's main thread, every frame.
function glide({ from, card, to }) {
  const was = from.rect;
  const dx = was.left + was.width / 2 - (to.left + to.width / 2);
  const dy = was.top + was.height / 2 - (to.top + to.height / 2);
  const turned = from.turned !== isTurned(card);
  const flip = turned && TABLES.find((table) => table.turned && (from.turned || card.classList.contains(table.turned)));
  trips.get(card)?.cancel();
  if (Math.abs(dx) < 2 && Math.abs(dy) < 2 && !turned) return;
  const scale = to.width && to.height ? `${was.width / to.width} ${was.height / to.height}` : "1";
  const zIndex = 5 + Math.min(40, Math.round(Math.hypot(dx, dy) / 20)); // the furthest traveller passes over all
  const landed = lift(card, zIndex);
  const trip = card.animate([{ translate: `${dx}px ${dy}px`, scale }, { translate: "0px 0px", scale: "1" }], {
    duration: MOTION_MS,
    easing: "ease-out",
  });
  trips.set(card, trip);
  trip.finished
    .finally(() => {
      if (trips.get(card) !== trip) return; // sent on meanwhile: the next slide puts the card back when it lands
      trips.delete(card);
      landed();
    })
    .catch(() => {}); // a slide cut short by the next one rejects `finished`: nothing went wrong
  if (flip) turnOver(card, flip.turned);
}

// While a card travels it rides above what it passes, with its button (a focused button is a layer of its own),
// and takes no pointer: a press lands on the place under it, where the card shown there rests (a card passing
// over another between a press and its release would otherwise take the click from it). Written on the elements
// for the trip, not animated: an animation of z-index or pointer-events runs on the page's main thread, which then
// lays out and paints the whole page every frame of every move, where the slide alone (translate, scale, rotate)
// is played by the compositor. Returns what puts them back.
function lift(card, zIndex) {
  const button = card.closest("button");
  for (const el of [card, button]) if (el) el.style.zIndex = String(zIndex);
  card.style.pointerEvents = "none";
  return () => {
    for (const el of [card, button]) if (el) el.style.zIndex = "";
    card.style.pointerEvents = "";
  };
}

// A card turning over shows its old side until it stands on its edge, then its new side.
function turnOver(card, turnedClass) {
  const half = { duration: MOTION_MS / 2 };
  card.classList.toggle(turnedClass);
  card
    .animate([{ rotate: "y 0deg" }, { rotate: "y 90deg" }], { ...half, easing: "ease-in" })
    .finished.finally(() => {
      card.classList.toggle(turnedClass);
      card.animate([{ rotate: "y -90deg" }, { rotate: "y 0deg" }], { ...half, easing: "ease-out" });
    });
}

// Each table module's motion (TABLES): `before(el)` notes what it needs before a draw, `after(noted, el, lib)`
// right after it returns what to play in the next frame (or nothing).
function slide(before, el) {
  if (!before) return;
  const plays = TABLES.map((table, at) => table.after && table.after(before.tables[at], el, LIB)).filter(Boolean);
  if (before.cards.size || plays.length) {
    requestAnimationFrame(() => {
      cardMoves(before.cards, el).forEach(glide);
      for (const play of plays) play();
    });
  }
}

function rectsOf(el) {
  if (stillWanted()) return null;
  return { cards: cardRects(el), tables: TABLES.map((table) => table.before && table.before(el)) };
}

// -- the score sheet points at what it counts: while a line naming cards or squares ("data-hk-shows",
// hatskit/drawing.py) is hovered or focused, those cards (data-hk-card "♥5") and board squares ("e4", the start
// of the square's name) on the table are marked ("hk-pointed"). A line is one seat's ("data-hk-seat"): it never points
// into another seat's panel ("hk-seat-<n>"), where a card of the same name is someone else's; the cards of no
// seat (the tea table) it points at. ------------------------------------------------------------------------

const SEAT_PANEL = /^hk-seat-\d+$/;

function otherSeats(thing, seat) {
  for (let at = thing.parentElement; at && seat !== undefined; at = at.parentElement) {
    const panel = [...at.classList].find((name) => SEAT_PANEL.test(name));
    if (panel && panel !== `hk-seat-${seat}`) return true;
  }
  return false;
}

const shownName = (thing) =>
  thing.classList.contains("hk-sq") ? (thing.getAttribute("aria-label") || "").split(":")[0] : thing.dataset.hkCard;

function pointedBy(line, el) {
  const names = new Set(line.dataset.hkShows.split(" "));
  return [...el.querySelectorAll(".hk-card:not(.hk-back), button.hk-sq")].filter(
    (thing) =>
      !thing.closest(".hk-scorepanel, .hk-movepanel, .hk-message") &&
      names.has(shownName(thing)) &&
      !otherSeats(thing, line.dataset.hkSeat),
  );
}

// The line under the pointer points; with none there, the line that has the keyboard's focus does (a mouse
// resting elsewhere, or a page scrolled under it, does not take the pointing from a reader on the keyboard).
function pointing(el) {
  const pointed = [];
  const lineOf = (node) => (node && node.closest ? node.closest("[data-hk-shows]") : null);
  const point = (target) => {
    pointed.splice(0).forEach((thing) => thing.classList.remove("hk-pointed"));
    const focused = el.contains(document.activeElement) ? document.activeElement : null;
    const line = lineOf(target) || lineOf(focused);
    if (!line) return;
    pointed.push(...pointedBy(line, el));
    pointed.forEach((thing) => thing.classList.add("hk-pointed"));
  };
  el.addEventListener("pointerover", (event) => point(event.target));
  el.addEventListener("focusin", (event) => point(event.target));
  el.addEventListener("pointerleave", () => point(null));
  el.addEventListener("focusout", (event) => point(event.relatedTarget));
}

// -- picking up and putting down, here on the page --------------------------------------------------------
// The kernel sends the reader's legal moves as data (a "moves" part): each move a path of presses (a card, then
// where it goes) with its notation. A press that begins a path picks up and lights where the pick may go
// (hk-selected, hk-legal, and the move's own mark), with no message; a press that completes a path sends
// {id, move}; a press on the part last picked puts it down; any other press on the board sends {id, path}, and
// the kernel answers why it made no move. A new position keeps the pick only while it still begins a path.
// A pick-up is the reader doing something right: a refusal an earlier press left on the message line is hidden
// (`hideRefusal`), on the page alone, until the kernel writes the line again.

function picker(drawn, send) {
  let moves = null; // the moves part's node: { id, offered: [{ move, path, mark }], board: [ids] }
  let picked = [];
  let stale = null; // { line, node }: the message line, and its node whose refusal a pick-up hid
  const lit = new Map(); // part id -> the classes the picker added
  const dimmed = new Set(); // the parts whose own hk-legal the picker took off while something is picked
  const begins = (path, start) => start.length <= path.length && start.every((id, at) => path[at] === id);
  function mark(id, names, says) {
    const item = drawn.get(id);
    if (!item) return;
    for (const name of names) item.el.classList.add(name);
    lit.set(id, [...(lit.get(id) || []), ...names]);
    if (names.includes("hk-selected")) attr(item.el, "aria-pressed", "true");
    if (!says) return;
    // A card or square is named by its tooltip, and the words join its name ("e2: empty; e1 can step here");
    // a button in words keeps its name ("black hat"), and they describe it.
    if (CARDLIKE.some((name) => item.node.c.includes(name))) attr(item.el, "aria-label", `${item.node.tip}; ${says}`);
    else attr(item.el, "aria-description", says);
  }
  function show() {
    for (const [id, names] of lit) {
      const item = drawn.get(id);
      if (!item) continue;
      for (const name of names) if (!item.node.c.includes(name)) item.el.classList.remove(name);
      if (item.el.hasAttribute("aria-pressed")) attr(item.el, "aria-pressed", String(item.node.c.includes("hk-selected")));
      if (item.el.hasAttribute("aria-label")) attr(item.el, "aria-label", item.node.tip || item.node.text || "empty");
      item.el.removeAttribute("aria-description");
    }
    lit.clear();
    for (const id of dimmed) if (drawn.has(id) && drawn.get(id).node.c.includes("hk-legal")) drawn.get(id).el.classList.add("hk-legal");
    dimmed.clear();
    if (!moves || !picked.length) return;
    for (const id of picked) mark(id, ["hk-selected"]);
    for (const { path, mark: own, says } of moves.offered) {
      if (path.length <= picked.length || !begins(path, picked)) continue;
      const last = path.length === picked.length + 1;
      mark(path[picked.length], last && own ? ["hk-legal", own] : ["hk-legal"], last ? says : "");
    }
    // While something is picked up, only where it may go is lit: the table's own marks of where a move may
    // start (a waiting ability's hats) wait until it is put down.
    for (const id of moves.board) {
      const item = drawn.get(id);
      if (!item || !item.node.c.includes("hk-legal") || (lit.get(id) || []).includes("hk-legal")) continue;
      item.el.classList.remove("hk-legal");
      dimmed.add(id);
    }
  }
  // The message line (hk-message) shows a refusal with hk-error. Hidden, its room kept, it waits for a new node
  // of the line (the kernel's next sentence), or for presses sent to the kernel, whose answer may be that very
  // sentence: the line would not change, so no node would come to show it.
  function hideRefusal() {
    const line = [...drawn.values()].find((item) => (item.node.c || []).includes("hk-message"));
    if (stale || !line || !line.node.c.includes("hk-error")) return;
    stale = { line, node: line.node };
    line.el.style.visibility = "hidden";
  }
  function showLine() {
    if (!stale) return;
    stale.line.el.style.visibility = "";
    stale = null;
  }
  function press(id) {
    if (!moves || !moves.board.includes(id)) return false; // not a piece of the game: a plain click
    if (picked.length && picked[picked.length - 1] === id) {
      picked.pop();
    } else {
      const tried = [...picked, id];
      const chosen = [tried, [id]].find((path) => moves.offered.some((move) => begins(move.path, path)));
      const done = chosen && moves.offered.find((move) => move.path.length === chosen.length && begins(move.path, chosen));
      if (done) {
        picked = []; // its marks stay until the answer is drawn: the card glides from where it was lifted
        send(moves.id, { move: done.move });
        return true;
      } else if (chosen) {
        picked = chosen;
        hideRefusal();
      } else {
        showLine();
        send(moves.id, { path: tried });
      }
    }
    show();
    return true;
  }
  function offered(node) {
    moves = node;
    if (stale && stale.line.node !== stale.node) showLine(); // the kernel wrote the line again
    if (!moves.offered.some((move) => begins(move.path, picked) && move.path.length > picked.length)) picked = [];
    show();
  }
  return { press, offered };
}

// -- drag and drop: the same presses as two clicks ----------------------------------------------------------
// Pressing on a card or square and letting go on another button makes the two presses a reader would make
// (pick up, put down), so an illegal drop gets the same sentence as an illegal click, and nothing changes. A card
// that is chosen where it lies, never carried ("hk-tapcard": an assembly line's hats), is not picked up by a drag.

const DRAG_PX = 6;
const PART_MOTION = { dragPx: DRAG_PX, glide, stillWanted };
// What a table module is given: writing an attribute only when it changes, and the motion's length.
const LIB = { attr, motionMs: MOTION_MS };

function dragging(el, press) {
  let held = null; // { part, x, y, ghost, moved }
  el.addEventListener("pointerdown", (event) => {
    const source = event.target.closest("button.hk-cardbtn:not(.hk-tapcard), button.hk-sq"); // a tap card: pressed only
    if (!source || source.disabled || event.button !== 0) return;
    held = { source, x: event.clientX, y: event.clientY, ghost: null };
  });
  el.addEventListener("pointermove", (event) => {
    if (!held) return;
    if (!held.ghost && Math.hypot(event.clientX - held.x, event.clientY - held.y) < DRAG_PX) return;
    if (!held.ghost) {
      held.ghost = held.source.cloneNode(true);
      held.ghost.className = `${held.source.className} hk-ghost`;
      held.ghost.removeAttribute("data-part");
      held.ghost.setAttribute("aria-hidden", "true");
      const look = getComputedStyle(held.source); // a square's piece is its background: carried over
      for (const name of ["backgroundImage", "backgroundSize", "backgroundRepeat", "backgroundPosition", "width", "height"]) {
        held.ghost.style[name] = look[name];
      }
      el.appendChild(held.ghost); // after the view's own tree, which a redraw leaves alone
      // "fixed" is fixed to the nearest contained box (JupyterLab's panels are), not always to the window.
      Object.assign(held.ghost.style, { left: "0px", top: "0px" });
      const zero = held.ghost.getBoundingClientRect();
      held.origin = [zero.left, zero.top, zero.width / 2, zero.height * 0.6];
      if (!held.source.classList.contains("hk-selected")) press(held.source); // pick it up: targets light
    }
    const [x, y, halfWidth, grip] = held.origin;
    Object.assign(held.ghost.style, { left: `${event.clientX - x - halfWidth}px`, top: `${event.clientY - y - grip}px` });
  });
  // A release over another place is a drop, however that place came under the pointer: the pointer moved, or
  // the page scrolled under a pointer held still (a mouse wheel, or the browser bringing the place into view).
  const drop = (event) => {
    if (!held) return;
    const { source, ghost } = held;
    held = null;
    if (ghost) ghost.remove();
    const under = document.elementFromPoint(event.clientX, event.clientY);
    if (!ghost && (!under || source.contains(under))) return; // a plain click: the click event does it
    const target = under && under.closest("button[data-part]");
    if (!ghost && !source.classList.contains("hk-selected")) press(source); // never lifted: pick it up first
    if (target && target !== source && el.contains(target)) press(target);
    source.dataset.dragged = "1"; // the click that may end a drag is not a second pick
    setTimeout(() => delete source.dataset.dragged, 0);
  };
  el.addEventListener("pointerup", drop);
  el.addEventListener("pointercancel", () => {
    if (held && held.ghost) held.ghost.remove();
    held = null;
  });
  el.addEventListener(
    "click",
    (event) => {
      const b = event.target.closest && event.target.closest("button[data-dragged]");
      if (!b) return;
      delete b.dataset.dragged;
      event.stopPropagation();
    },
    true,
  );
}

// A long markup comes as what changed in it (widgets/toolkit/ui.py, spliced): how much of the markup the page
// has to keep before and after (in UTF-16 units, as JavaScript counts), and the new middle.
function spliced(had, node) {
  if (!node.splice) return node;
  const [head, tail, middle] = node.splice;
  const { splice, ...whole } = node;
  whole.html = had.html.slice(0, head) + middle + had.html.slice(had.html.length - tail);
  return whole;
}

function render({ model, el }) {
  const drawn = new Map(); // part id -> { t, el, node, input?, model? }
  const nodes = new Map(); // part id -> its node, as the kernel last sent it (a box's children by id)
  let version = -1;
  let root = null;
  let movesNode = null;
  const send = (id, content) => model.send({ id, ...content });
  const picks = picker(drawn, send);

  function place(id, seen) {
    const node = nodes.get(id);
    let item = drawn.get(node.id);
    if (!item || item.t !== node.t) {
      if (item && item.cleanup) item.cleanup();
      item = make(node, send, picks.press);
      drawn.set(node.id, item);
      if (node.t === "custom") {
        item.node = node;
        const cleanup = PARTS[node.part]({ model: item.model, el: item.el, motion: PART_MOTION });
        item.cleanup = typeof cleanup === "function" ? cleanup : null;
      }
    }
    seen.add(node.id);
    update(item, node);
    if (node.t === "moves") movesNode = node;
    if (node.kids) {
      const kids = node.kids.map((kid) => place(kid, seen));
      const box = item.box || item.el; // a fold's parts go below its summary
      const now = box.children;
      if (now.length !== kids.length || kids.some((kid, index) => now[index] !== kid)) box.replaceChildren(...kids);
    }
    return item.el;
  }

  function draw() {
    if (root === null || !nodes.has(root)) return;
    const before = rectsOf(el);
    const seen = new Set();
    const top = place(root, seen);
    if (el.firstChild !== top) el.replaceChildren(top);
    for (const [id, item] of drawn) {
      if (seen.has(id)) continue;
      if (item.cleanup) item.cleanup();
      drawn.delete(id);
    }
    if (movesNode) picks.offered(movesNode);
    for (const table of TABLES) if (table.drawn) table.drawn(el, LIB);
    scrollToCurrentMove(el);
    showChosen(el);
    slide(before, el);
  }

  // The whole tree: when the view opens, and when it said hello because it missed a patch.
  function load() {
    const tree = model.get("tree");
    if (!tree || tree.v === undefined || tree.v < version) return;
    nodes.clear();
    for (const [id, node] of Object.entries(tree.nodes)) nodes.set(Number(id), node);
    [root, version] = [tree.root, tree.v];
    draw();
  }
  // A patch: the nodes of the parts that changed, numbered; a gap means one was missed.
  function patch(message) {
    if (!message || message.v === undefined || message.v <= version) return;
    if (message.v !== version + 1) return model.send({ hello: true });
    for (const [id, node] of Object.entries(message.nodes)) nodes.set(Number(id), spliced(nodes.get(Number(id)), node));
    for (const id of message.gone) nodes.delete(id);
    version = message.v;
    draw();
  }
  model.on("change:tree", load);
  model.on("msg:custom", patch);
  load();
  model.send({ hello: true });
  el.addEventListener("keydown", (event) => TABLES.forEach((table) => table.keys && table.keys(event)));
  dragging(el, (button) => {
    const id = Number(button.dataset.part);
    if (!picks.press(id)) send(id, { do: "click" });
  });
  pointing(el);
  requestAnimationFrame(() => {
    if (el.closest(".hk-table")) skipLink();
  });
  return () => {
    for (const item of drawn.values()) if (item.cleanup) item.cleanup();
  };
}

// The page's other modules, each imported by the loader (widgets/toolkit/ui.py, LOADER) and handed here: a
// custom part's module exports `render`, a game's table module `table`, its hooks.
function use(name, module) {
  if (module.render) PARTS[name] = module.render;
  if (module.table) TABLES.push(module.table);
}

export default { render, use };
