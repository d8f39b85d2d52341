"""Pure renderers: positions and score sheets as HTML strings, nothing interactive.

Widgets and notebooks show these; hatskit objects use them for ``_repr_html_``.
"""
