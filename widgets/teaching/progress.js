// The progress part (widgets/teaching/progress.py): the stars and place of a game's lessons, kept in the browser's
// localStorage under "hatskit.lessons.<game>" (no server, no account; the index page reads the same key).
//
// As the page opens it sends what this browser kept; whenever the kernel sets `saved`, it keeps that.
// A browser that keeps nothing (private windows with storage off) still plays: the lessons just start over.

function render({ model, el }) {
  const key = `hatskit.lessons.${model.get("game")}`;
  el.hidden = true;
  let kept = null;
  try {
    kept = JSON.parse(window.localStorage.getItem(key) || "null");
  } catch {
    kept = null;
  }
  model.send({ saved: kept });
  model.on("change:saved", () => {
    try {
      window.localStorage.setItem(key, JSON.stringify(model.get("saved")));
    } catch {
      // storage refused: the page goes on without remembering
    }
  });
}

export { render };
