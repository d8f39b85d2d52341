// The clipboard part (widgets/toolkit/clipboard.py): copies what the kernel sends to the reader's clipboard, and shows it, selected, in a read-only box.
//
// The kernel sets `text` and counts `copies` up for every copy (so the same text copies again).
// A text starting with "?" is a query: the page's own address is put in front of it, as only the
// browser knows that address (behind Binder or JupyterHub it is not the kernel's). Where the
// browser refuses the clipboard (a page served over plain http from another machine), the box
// still holds the text, selected, for Ctrl+C.

function render({ model, el }) {
  const box = document.createElement("input");
  box.type = "text";
  box.readOnly = true;
  box.className = "hk-copybox";
  box.setAttribute("aria-label", model.get("label"));
  const said = document.createElement("span");
  said.className = "hk-copysaid";
  said.setAttribute("role", "status");
  el.classList.add("hk-copy");
  el.append(box, said);

  async function copy() {
    const text = model.get("text");
    const full = text.startsWith("?") ? new URL(text, window.location.href).href : text;
    box.value = full;
    el.classList.toggle("hk-copy-shown", full !== "");
    if (!full) return;
    box.select();
    try {
      await navigator.clipboard.writeText(full);
      said.textContent = "copied";
    } catch {
      said.textContent = "select the text and press Ctrl+C to copy it";
    }
  }
  model.on("change:copies", copy);
}

export { render };
