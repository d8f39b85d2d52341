// Hats' own front end, a module the page imports beside view.js (widgets/toolkit/ui.py, LOADER): a card that
// becomes the reader's black hat ("hk-blackhat", drawn face down to everyone else, H3) turns over as it slides to
// the collection (view.js, glide), and undo turns it back.

export const table = { turned: "hk-blackhat" };
