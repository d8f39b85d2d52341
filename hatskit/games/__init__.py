"""The four games, one package each, every package the same files in the same order.

``components`` (options, cards or pieces), ``moves`` (move types and their
notation), ``state`` (who acts, legality with reasons, ``advance``),
``narration`` (the events of a move, told from before and after), ``scoring``
(score sheet and outcome), ``positions`` (new, load, save, view, sample a
world), ``render`` (pure HTML), ``bots`` (the strong bot and its hints); the
package's ``__init__`` builds the game's ``SPEC`` from them. Rulings are cited
by id and explained in ``docs/rulings.md``.
"""
