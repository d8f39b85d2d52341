"""The kernel's side of the page: parts (boxes, buttons, lines of HTML) drawn by one ES module, view.js, and
the style every table shares. Knows parts, never games."""
