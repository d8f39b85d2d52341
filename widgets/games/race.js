// The Hats Off! race pad: the flipped card, the reader's cards and buttons, keys, and a stopwatch.
//
// The kernel sends only the reader's own view (hand, the head card while it may be seen, the
// public pile and loose cards). Each decision the kernel opens has a number, `turn`. When a
// turn's picture has been drawn (the first animation frame after the DOM changed), the
// stopwatch starts; a click or a key press stops it, and the move goes to the kernel with
// that reaction time in seconds (at a shared table, on to the table host). Network delay on
// the way in or out never counts: the race is settled on these times. With no answer after
// `timeout` seconds the pad passes.
// A card can also be carried (mouse or finger) from the hand or the head and let go on the pile: the
// drop is the answer, timed when the card is let go, as a click is timed when it is made. Let go anywhere
// else, the card goes back to its place and nothing is played. The carrying and gliding are the table's own
// (`motion`, view.js's PART_MOTION), so the pad's cards move as the table's do.

const KEYS = { h: "head", H: "head", " ": "off", p: "pass", P: "pass", f: "flip", F: "flip" };
let lastPad = null; // the pad the reader used last: it takes the keys when nothing else has focus

function button(className, label) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = `hk-race-btn ${className}`;
  b.setAttribute("aria-label", label);
  b.title = label;
  return b;
}

function setEnabled(b, on) {
  b.setAttribute("aria-disabled", on ? "false" : "true"); // not `disabled`: a focused button keeps the keys
  b.classList.toggle("hk-race-off", !on);
}

function render({ model, el, motion }) {
  const { dragPx, glide, stillWanted } = motion;
  const pad = document.createElement("div");
  pad.className = "hk hk-race";
  pad.tabIndex = 0;
  pad.setAttribute("role", "group");
  pad.setAttribute("aria-label", "Hats Off! race: keys 1-4 your cards, H head card, space Hats Off!, P pass, F flip");
  pad.innerHTML = `
    <div class="hk-race-prompt" aria-live="polite"></div>
    <div class="hk-race-centre">
      <div class="hk-race-top"></div>
      <div class="hk-race-loose"></div>
    </div>
    <div class="hk-race-result" aria-live="polite"></div>
    <div class="hk-race-you">
      <div class="hk-race-headbox"><div class="hk-race-caption">your head</div></div>
      <div class="hk-race-handbox"><div class="hk-race-caption">your hand</div><div class="hk-race-hand"></div></div>
    </div>
    <div class="hk-race-actions"></div>
    <div class="hk-race-clock"><div class="hk-race-bar"></div></div>
    <div class="hk-race-said" aria-live="polite"></div>`;
  el.appendChild(pad);
  const $ = (selector) => pad.querySelector(selector);
  const headButton = button("hk-race-head", "your head card (key H)");
  $(".hk-race-headbox").appendChild(headButton);
  const offButton = button("hk-race-call", "Hats Off! (space bar)");
  offButton.innerHTML = `Hats Off! <span class="hk-keys">␣</span>`;
  const passButton = button("hk-race-pass", "pass (key P)");
  passButton.innerHTML = `pass <span class="hk-keys">P</span>`;
  const flipButton = button("hk-race-flip", "flip the next card (key F)");
  flipButton.innerHTML = `flip <span class="hk-keys">F</span>`;
  $(".hk-race-actions").append(offButton, passButton, flipButton);

  let turn = -1; // the decision on screen
  let open = false; // the reader may still answer it
  let shownAt = null; // performance.now() when it was drawn
  let timer = null; // the pass the pad makes when the clock runs out
  let ticker = null; // without motion, the clock's step each second
  let lastTime = ""; // the reader's own time in the last race, on screen until the next card

  const cardHtml = (kind) => model.get("cards")[kind] || "";
  const handActions = () => model.get("hand").map((kind) => (model.get("phase") === "wear" ? `wear ${kind}` : kind));

  function answer(action, event) {
    if (!open || shownAt === null) return;
    const stamp = event && event.timeStamp ? event.timeStamp : performance.now();
    const seconds = Math.max(0, (stamp - shownAt) / 1000);
    open = false;
    stopClock();
    pad.dataset.answered = action;
    lastTime = timed() ? `your time: ${seconds.toFixed(2)} s` : lastTime;
    $(".hk-race-said").textContent = timed() ? `you: ${action} after ${seconds.toFixed(3)} s` : "";
    model.send({ answer: action, turn, seconds });
    draw();
  }

  const timed = () => model.get("phase") === "race";

  function allowed(action) {
    if (!open) return false;
    const phase = model.get("phase");
    if (phase === "flip") return action === "flip";
    if (phase === "wear") return handActions().includes(action);
    if (phase !== "race") return false;
    if (action === "off") return model.get("can_call");
    if (action === "head") return model.get("has_head") && model.get("top") !== null;
    if (action === "pass") return true;
    return model.get("top") !== null && model.get("hand").includes(action);
  }

  function draw() {
    const phase = model.get("phase");
    const top = model.get("top");
    drawPrompt();
    $(".hk-race-result").textContent = model.get("result");
    const under = model.get("under");
    $(".hk-race-top").innerHTML = top
      ? cardHtml(top).replace("hk-ho-card", "hk-ho-card hk-race-big") +
        (under ? `<div class="hk-race-note">${under} card${under > 1 ? "s" : ""} under it</div>` : "")
      : `<div class="hk-race-note">${phase === "race" ? "no card to match" : "the pile is empty"}</div>`;
    $(".hk-race-top").setAttribute("aria-label", top ? `top card: ${top}` : "no top card");
    $(".hk-race-loose").innerHTML = model
      .get("loose")
      .map((card) => `<div class="hk-race-loosecard" title="${card.label}">${cardHtml(card.kind)}<small>${card.label}</small></div>`)
      .join("");
    drawHand(phase);
    drawHead();
    setEnabled(offButton, allowed("off"));
    setEnabled(passButton, allowed("pass"));
    setEnabled(flipButton, allowed("flip"));
    for (const [b, action] of [[offButton, "off"], [passButton, "pass"], [flipButton, "flip"]]) mark(b, action);
    offButton.style.display = phase === "race" ? "" : "none";
    passButton.style.display = phase === "race" ? "" : "none";
    flipButton.style.display = phase === "flip" && model.get("can_act") ? "" : "none";
    if (model.get("answer")) $(".hk-race-said").textContent = model.get("answer");
  }

  // The prompt, and after it the keys for it, in a part a phone leaves out (it has no keys).
  function drawPrompt() {
    const prompt = $(".hk-race-prompt");
    const keys = model.get("keys");
    prompt.textContent = model.get("prompt");
    if (!keys) return;
    const hint = Object.assign(document.createElement("span"), { className: "hk-keys hk-race-keys", textContent: keys });
    prompt.append(" ", hint);
  }

  function drawHand(phase) {
    const hand = $(".hk-race-hand");
    const kinds = model.get("hand");
    const actions = handActions();
    while (hand.children.length < kinds.length) hand.appendChild(button("hk-race-card", ""));
    while (hand.children.length > kinds.length) hand.lastChild.remove();
    kinds.forEach((kind, index) => {
      const b = hand.children[index];
      const verb = phase === "wear" ? "put on your head" : "play";
      const label = `${verb}: your ${kind} (key ${index + 1})`;
      b.setAttribute("aria-label", label);
      b.title = label;
      b.dataset.action = actions[index];
      b.innerHTML = `${cardHtml(kind)}<kbd>${index + 1}</kbd>`;
      setEnabled(b, allowed(actions[index]));
      mark(b, actions[index]);
    });
  }

  // The action the table points at (a lesson's step) is marked as a hint is on the other tables.
  function mark(b, action) {
    b.classList.toggle("hk-hint", open && model.get("hint") === action);
  }

  function drawHead() {
    const head = model.get("head");
    if (!model.get("has_head")) {
      headButton.innerHTML = `<span class="hk-race-note">no head card</span>`;
    } else if (head) {
      headButton.innerHTML = `${cardHtml(head)}<kbd>H</kbd>`;
    } else {
      headButton.innerHTML = `<span class="hk-ho-card hk-back" aria-hidden="true">?</span><kbd>H</kbd>`;
    }
    const label = head ? `play your head card: ${head} (key H)` : "play your head card, face down (key H)";
    headButton.setAttribute("aria-label", label);
    headButton.title = label;
    headButton.classList.toggle("hk-race-peek", Boolean(head));
    setEnabled(headButton, allowed("head"));
    mark(headButton, "head");
  }

  // A new decision: draw it, and start the stopwatch once it is on screen.
  function newTurn() {
    turn = model.get("turn");
    open = model.get("can_act");
    shownAt = null;
    stopClock(); // a race settled by another's answer is over here too: its clock does not run on
    delete pad.dataset.shownAt;
    delete pad.dataset.answered;
    if (model.get("phase") === "race") lastTime = ""; // a new card: the last race's time has had its moment
    $(".hk-race-said").textContent = lastTime;
    pad.dataset.turn = String(turn);
    draw();
    requestAnimationFrame(() => {
      // Two decisions within one frame ask twice: the first frame to show the last one starts its one stopwatch.
      if (turn !== model.get("turn") || shownAt !== null) return;
      shownAt = performance.now();
      pad.dataset.shownAt = String(shownAt);
      if (open && timed()) startClock();
      if (open && lastPad === pad && document.activeElement === document.body) pad.focus({ preventScroll: true });
    });
  }

  function startClock() {
    stopTimers(); // one stopwatch a pad: a second would pass for the reader in a later decision
    const seconds = model.get("timeout");
    if (stillWanted()) tickClock(seconds);
    else runClock(seconds);
    pad.classList.add("hk-race-running");
    timer = setTimeout(() => answer("pass", null), seconds * 1000);
  }

  // The bar empties smoothly over the race's seconds: a scale, which the compositor plays (a width would lay the
  // page out every frame of the race).
  function runClock(seconds) {
    const bar = $(".hk-race-bar");
    bar.style.transition = "none";
    bar.style.transform = "scaleX(1)";
    void bar.offsetWidth; // restart the transition
    bar.style.transition = `transform ${seconds}s linear`;
    bar.style.transform = "scaleX(0)";
  }

  // For a reader who asks for reduced motion (no transition then) the bar still shows the time left: it steps
  // down once a second, as a clock's hand jumps.
  function tickClock(seconds) {
    const bar = $(".hk-race-bar");
    const started = performance.now();
    const show = () => {
      const left = Math.max(0, seconds - (performance.now() - started) / 1000);
      bar.style.transform = `scaleX(${Math.min(1, Math.ceil(left) / seconds)})`;
    };
    show();
    ticker = setInterval(show, 1000);
  }

  // After an answer, or when the next decision comes, the clock is over: its pass and its steps are called off,
  // and the bar empties at once instead of stopping part-way until the next race.
  function stopClock() {
    stopTimers();
    pad.classList.remove("hk-race-running");
    const bar = $(".hk-race-bar");
    bar.style.transition = "none";
    bar.style.transform = "scaleX(0)";
  }

  function stopTimers() {
    clearTimeout(timer);
    clearInterval(ticker);
  }

  let queued = false;
  function changed() {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      if (model.get("turn") !== turn) newTurn();
      else draw();
    });
  }
  for (const name of ["turn", "phase", "prompt", "keys", "result", "top", "under", "loose", "hand", "has_head", "head", "can_act", "can_call", "answer", "hint", "cards"]) {
    model.on(`change:${name}`, changed);
  }

  // -- carrying a card to the pile ------------------------------------------------------------------------
  let carried = null; // { button, action, x, y, ghost } while the pointer is down on a card
  let dropped = false; // a drag just ended: the click the browser sends after it is not a play

  function pickUp(event) {
    const b = event.target.closest("button");
    if (carried || event.button !== 0 || !b || !(b === headButton || b.dataset.action)) return;
    const action = b === headButton ? "head" : b.dataset.action;
    if (!timed() || !allowed(action)) return;
    lastPad = pad;
    carried = { button: b, action, x: event.clientX, y: event.clientY, ghost: null };
    window.addEventListener("pointermove", carry);
    window.addEventListener("pointerup", letGo);
    window.addEventListener("pointercancel", letGo);
  }

  // The card follows the pointer once it has moved a few pixels (less is a click), and the pile is marked as
  // the place it can go.
  function carry(event) {
    if (!carried.ghost && Math.hypot(event.clientX - carried.x, event.clientY - carried.y) < dragPx) return;
    if (!carried.ghost) carried.ghost = liftedCopy(carried.button);
    const { ghost } = carried;
    const [left, top, width, height] = ghost.dataset.origin.split(" ").map(Number);
    Object.assign(ghost.style, { left: `${event.clientX - left - width / 2}px`, top: `${event.clientY - top - height / 2}px` });
  }

  // A picture of the card that follows the pointer. "fixed" is fixed to the nearest contained box (JupyterLab's
  // panels are), not always to the window: where (0, 0) lands is measured once.
  function liftedCopy(b) {
    const ghost = document.createElement("div");
    ghost.className = "hk-race-btn hk-race-ghost";
    ghost.setAttribute("aria-hidden", "true");
    ghost.innerHTML = b.innerHTML;
    pad.appendChild(ghost);
    const zero = ghost.getBoundingClientRect();
    ghost.dataset.origin = `${zero.left} ${zero.top} ${zero.width} ${zero.height}`;
    b.classList.add("hk-race-carried");
    $(".hk-race-top").classList.add("hk-race-drop");
    return ghost;
  }

  // Where the card is let go is what counts, not how far the pointer moved: a card held still while the page
  // scrolls the pile under it is let go on the pile. Let go on the card it was pressed on, it is a click.
  function letGo(event) {
    const { button, action, ghost } = carried;
    carried = null;
    for (const [name, listener] of [["pointermove", carry], ["pointerup", letGo], ["pointercancel", letGo]]) {
      window.removeEventListener(name, listener);
    }
    const under = event.type === "pointerup" && document.elementFromPoint(event.clientX, event.clientY);
    if (!ghost && (!under || button.contains(under))) return; // a click: the click handler plays it
    const from = ghost && ghost.getBoundingClientRect();
    if (ghost) ghost.remove();
    button.classList.remove("hk-race-carried");
    $(".hk-race-top").classList.remove("hk-race-drop");
    dropped = true;
    setTimeout(() => (dropped = false), 0);
    if (under && $(".hk-race-top").contains(under) && allowed(action)) return answer(action, event);
    if (from && !stillWanted()) glide({ from: { rect: from, turned: false }, card: button, to: button.getBoundingClientRect() });
    $(".hk-race-said").textContent = "Nothing played: to play a card, let go of it on the top card of the pile.";
  }

  pad.addEventListener("pointerdown", pickUp);

  pad.addEventListener("click", (event) => {
    if (dropped) return;
    lastPad = pad;
    const b = event.target.closest("button");
    if (!b || b.getAttribute("aria-disabled") === "true") return;
    if (b === headButton) answer("head", event);
    else if (b === offButton) answer("off", event);
    else if (b === passButton) answer("pass", event);
    else if (b === flipButton) answer("flip", event);
    else if (b.dataset.action) answer(b.dataset.action, event);
  });

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const index = "1234".indexOf(event.key);
    const action = index >= 0 ? handActions()[index] : KEYS[event.key];
    if (action === undefined) return;
    event.preventDefault(); // the space bar must not scroll the page or press a focused button
    lastPad = pad;
    if (allowed(action)) answer(action, event);
  }
  pad.addEventListener("keydown", onKey);
  pad.addEventListener("keyup", (event) => {
    if (event.key === " ") event.preventDefault();
  });
  const fromPage = (event) => {
    if (lastPad === pad && document.activeElement === document.body) onKey(event);
  };
  document.addEventListener("keydown", fromPage);

  newTurn();
  return () => {
    stopTimers();
    if (carried) letGo(new PointerEvent("pointercancel"));
    document.removeEventListener("keydown", fromPage);
    if (lastPad === pad) lastPad = null;
  };
}

export { render };
