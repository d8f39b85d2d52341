// The seats this browser sat at (widgets/table/classmates.py, KeptSeats), kept in localStorage under
// "hatskit.seats" as {CODE: {token, name, at}}: opening a table's link again comes back to the same seat.
//
// As the page opens it sends what this browser kept; whenever the kernel sets `keep`, it adds that seat,
// keeping the `most` newest. A browser that keeps nothing (storage off) still plays: a reload joins anew.
// It also sends and keeps the student's name in the class with its class token, under "hatskit.class"
// ({name, token}, `class_kept`: a walkthrough's follower, widgets/table/walkthrough.py), the key the lessons'
// progress part keeps it under too (widgets/teaching/progress.js): one name and token a browser.

const KEY = "hatskit.seats";
const CLASS_KEY = "hatskit.class";

function readClass() {
  try {
    return JSON.parse(window.localStorage.getItem(CLASS_KEY) || "null");
  } catch {
    return null;
  }
}

function keepClass(kept) {
  try {
    if (kept && kept.name && kept.token) window.localStorage.setItem(CLASS_KEY, JSON.stringify(kept));
  } catch {
    // storage refused: the page goes on without remembering
  }
}

function read() {
  try {
    const kept = JSON.parse(window.localStorage.getItem(KEY) || "{}");
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : {};
  } catch {
    return {};
  }
}

function keep(seat, most) {
  const kept = read();
  kept[seat.code] = { token: seat.token, name: seat.name, at: Date.now() };
  const newest = Object.entries(kept)
    .sort(([, a], [, b]) => (b.at || 0) - (a.at || 0))
    .slice(0, most);
  try {
    window.localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(newest)));
  } catch {
    // storage refused: the page goes on without remembering
  }
}

function render({ model, el }) {
  el.hidden = true;
  model.send({ kept: read(), class: readClass() });
  model.on("change:class_kept", () => keepClass(model.get("class_kept")));
  model.on("change:keep", () => {
    const seat = model.get("keep");
    if (seat && seat.code && seat.token) keep(seat, model.get("most"));
  });
}

export { render };
