// The progress part (widgets/teaching/progress.py): the stars and place of a game's lessons, kept in the browser's
// localStorage under "hatskit.lessons.<game>" (no server, no account; the index page reads the same key), and the
// student's name in the class with its class token under "hatskit.class" ({name, token}: a key, as seat tokens
// are), which every game page shares.
//
// As the page opens it sends what this browser kept; whenever the kernel sets `saved` or `class_kept`, it keeps
// that. Its one line (`told`) says what goes to the teacher's class list and to whom; empty, the part is hidden.
// A browser that keeps nothing (private windows with storage off) still plays: the lessons just start over.

const CLASS_KEY = "hatskit.class";

function read(key) {
  try {
    return JSON.parse(window.localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage refused: the page goes on without remembering
  }
}

function render({ model, el }) {
  const key = `hatskit.lessons.${model.get("game")}`;
  const tell = () => {
    el.textContent = model.get("told") || "";
    el.hidden = !el.textContent;
  };
  tell();
  model.send({ saved: read(key), class: read(CLASS_KEY) });
  model.on("change:saved", () => write(key, model.get("saved")));
  model.on("change:class_kept", () => write(CLASS_KEY, model.get("class_kept")));
  model.on("change:told", tell);
}

export { render };
