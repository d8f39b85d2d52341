// Sombrero's own front end, a module the page imports beside view.js (widgets/toolkit/ui.py, LOADER) and hands
// its `table` hooks (view.js, use): the board is one Tab stop with the arrow keys inside (Home and End to a rank's
// ends), a piece steps from square to square, and a hat moves alone when a piece keeps its square (S2's hat jump,
// S3's capture). The board's squares are "button.hk-sq" in a ".hk-sb-grid" (widgets/games/sombrero.py), each
// piece a class of its square ("hk-piece-white-hatted").

const motion = { ms: 320 }; // the table's motion length, as view.js gives it (LIB.motionMs)

const squares = (grid) => [...grid.querySelectorAll("button.hk-sq")];

function rove(grid, { attr }) {
  const all = squares(grid);
  if (!all.length) return;
  attr(grid, "role", "group");
  attr(grid, "aria-label", "the board: arrow keys move between squares, Enter or Space presses one");
  const current = all.find((b) => b.tabIndex === 0 && b.dataset.hkRove) || all[all.length - 8] || all[0];
  for (const b of all) {
    if (!b.dataset.hkRove) b.dataset.hkRove = "1";
    attr(b, "tabindex", b === current ? "0" : "-1"); // the attribute: a button's tabIndex is 0 without one
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


// A board's pieces (Sombrero's squares, "button.hk-sq") are the squares' pictures (a class per kind of piece,
// "hk-piece-<side>-hatted"), with no name of their own: when one square lost a piece and one other square gained
// a piece of the same kind, that piece stepped there. The new square marks itself "hk-arriving" as it is drawn
// (its picture then shows on its ::after, the square's own kept back), and in the next frame that ::after glides
// in from the old square: no element is added, and the squares, which never move, are measured once the
// browser lays the page out anyway.
function pieceKinds(el) {
  const kinds = new Map();
  for (const square of el.querySelectorAll("button.hk-sq")) {
    const kind = [...square.classList].find((name) => name.startsWith("hk-piece-")) || "";
    kinds.set(square.dataset.part, { kind, square });
  }
  return kinds;
}

function steppedPiece(before, el) {
  const left = [];
  const arrived = [];
  for (const [id, now] of pieceKinds(el)) {
    const then = before.get(id);
    if (!then || then.kind === now.kind) continue;
    if (now.kind === "") left.push(then);
    else if (then.kind === "") arrived.push(now);
  }
  if (left.length !== 1 || arrived.length !== 1 || left[0].kind !== arrived[0].kind) return null;
  arrived[0].square.classList.add("hk-arriving");
  return { from: left[0].square, square: arrived[0].square };
}

function stepPiece(step) {
  const [from, to] = [step.from.getBoundingClientRect(), step.square.getBoundingClientRect()];
  const moves = [{ transform: `translate(${from.left - to.left}px, ${from.top - to.top}px)` }, { transform: "none" }];
  step.square
    .animate(moves, { duration: motion.ms, easing: "ease-out", pseudoElement: "::after" })
    .finished.finally(() => step.square.classList.remove("hk-arriving"));
}

// -- hats on a board: a piece that keeps its square but gains or loses its hat (Sombrero's S2 hat jump, S3's
// capture). Each kind's picture is noted once, as the board is first seen (a square's computed background, read
// before a change while the page is laid out anyway), so a square can show its old picture while the hat moves:
// the hat alone is the top of the hatted picture on the square's ::after ("hk-hat-moving", widgets/toolkit/style.py).
// One square of a side losing its hat as one other of the same side gains one is a hat jump: the hat glides
// between them. Any other hat lost lifts off and fades; any other hat gained (stepping back over a capture)
// comes down and settles.

const PICTURES = new Map(); // "hk-piece-white-hatted" -> its url(...)
const HAT_MOVES = "hk-hat-moving";

function notePicture(kind, square) {
  if (kind && !PICTURES.has(kind) && !square.style.backgroundImage) { // not one showing its old picture for now
    PICTURES.set(kind, getComputedStyle(square).backgroundImage);
  }
}

const sideOf = (kind) => kind.replace(/-hat(ted|less)$/, "");
const hatted = (kind) => kind.endsWith("-hatted");

function hatChanges(before, el) {
  const [lost, gained] = [[], []];
  for (const [id, now] of pieceKinds(el)) {
    const then = before.get(id);
    if (!then || !then.kind || !now.kind || then.kind === now.kind) continue;
    if (sideOf(then.kind) !== sideOf(now.kind)) continue;
    (hatted(then.kind) ? lost : gained).push({ square: now.square, was: then.kind });
  }
  return { lost, gained };
}

function moveHats({ lost, gained }) {
  const ofSide = (hats, side) => hats.filter((hat) => sideOf(hat.was) === side);
  const jumped = (side) => ofSide(lost, side).length === 1 && ofSide(gained, side).length === 1;
  for (const hat of gained) {
    if (jumped(sideOf(hat.was))) hatGlides(ofSide(lost, sideOf(hat.was))[0].square, hat);
    else hatUpOrDown(hat, true);
  }
  for (const hat of lost) if (!jumped(sideOf(hat.was))) hatUpOrDown(hat, false);
}

// The square that gains the hat shows its old, hatless picture beneath, and the hat on top.
function showHat(square, hat, under) {
  square.classList.add(HAT_MOVES);
  square.style.setProperty("--hk-hat", hat);
  if (under) square.style.backgroundImage = under;
  return () => {
    square.classList.remove(HAT_MOVES);
    square.style.removeProperty("--hk-hat");
    if (under) square.style.removeProperty("background-image");
  };
}

function hatGlides(from, { square, was }) {
  if (!PICTURES.has(was)) return;
  const done = showHat(square, getComputedStyle(square).backgroundImage, PICTURES.get(was));
  const [a, b] = [from.getBoundingClientRect(), square.getBoundingClientRect()];
  const moves = [{ transform: `translate(${a.left - b.left}px, ${a.top - b.top}px)` }, { transform: "none" }];
  square.animate(moves, { duration: motion.ms, easing: "ease-out", pseudoElement: "::after" }).finished.finally(done);
}

// A hat lost lifts off and fades; one gained (going back) comes down the same way.
function hatUpOrDown({ square, was }, landing) {
  if (!PICTURES.has(was)) return;
  const now = getComputedStyle(square).backgroundImage;
  const done = landing ? showHat(square, now, PICTURES.get(was)) : showHat(square, PICTURES.get(was), null);
  const off = { transform: "translateY(-45%)", opacity: 0 };
  const on = { transform: "none", opacity: 1 };
  const moves = landing ? [off, on] : [on, off];
  square.animate(moves, { duration: motion.ms, easing: "ease-out", pseudoElement: "::after" }).finished.finally(done);
}


export const table = {
  keys: onKey,
  drawn(el, lib) {
    for (const grid of el.querySelectorAll(".hk-sb-grid")) rove(grid, lib);
  },
  before(el) {
    const pieces = pieceKinds(el);
    for (const { kind, square } of pieces.values()) notePicture(kind, square);
    return pieces;
  },
  after(pieces, el, lib) {
    motion.ms = lib.motionMs;
    if (!pieces.size) return null;
    const step = steppedPiece(pieces, el);
    return () => {
      if (step) stepPiece(step);
      moveHats(hatChanges(pieces, el));
    };
  },
};
