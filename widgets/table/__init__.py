"""The table every game shares: the frame (set-up, history, seats, bots, messages, scores), the moves a reader
may make sent to the page as data, links, seating and the bots' pacing."""
