"""The parts tables are built of: shared styles and layouts that refuse to change, and hiding by class."""

from __future__ import annotations

import ipywidgets as widgets
import pytest
from ipywidgets.widgets.widget import _instances
from ipywidgets.widgets.widget_description import DescriptionStyle

import hatskit
from widgets import HatsTable, SombreroTable
from widgets.batch import opened_whole
from widgets.parts import HIDDEN, html_line, is_shown, named_button, shared, show, style_of
from widgets.style import WIDGET_CSS


def test_the_same_settings_give_the_same_part_and_other_settings_another() -> None:
    assert shared(widgets.Layout, width="auto") is shared(widgets.Layout, width="auto")
    assert shared(widgets.Layout, width="auto") is not shared(widgets.Layout)
    assert shared(widgets.Layout, width="12em").width == "12em"
    assert style_of(widgets.Text, description_width="initial") is style_of(widgets.Text, description_width="initial")
    assert isinstance(style_of(widgets.Dropdown), DescriptionStyle)


@pytest.mark.parametrize("change", [("display", "none"), ("width", "3em")])
def test_a_shared_layout_refuses_to_change_with_a_sentence(change: tuple[str, str]) -> None:
    layout = named_button("undo", "one move back", lambda: None).layout
    with pytest.raises(AttributeError, match=f"shared by many widgets and cannot change \\({change[0]}="):
        setattr(layout, *change)
    assert layout.display is None and layout.width == "auto"


def test_a_shared_style_refuses_to_change() -> None:
    style = html_line("hk-status").style
    with pytest.raises(AttributeError, match="cannot change"):
        style.font_size = "40px"


def test_a_shared_part_made_before_its_widgets_open_still_refuses_changes() -> None:
    """Sealed before anything read its synced traits (widgets/batch.py's opened_whole), it once recursed forever."""
    with opened_whole():
        layout = shared(widgets.Layout, width="3.25em")
        with pytest.raises(AttributeError, match="cannot change"):
            layout.width = "1em"
    assert layout.comm is not None and layout.width == "3.25em"


def test_show_hides_by_class_and_leaves_the_shared_layout_alone() -> None:
    first, second = named_button("a", "a", lambda: None), named_button("b", "b", lambda: None)
    show(first, False)
    assert not is_shown(first) and HIDDEN in first._dom_classes and is_shown(second)
    assert first.layout is second.layout and first.layout.display is None
    show(first, True)
    assert is_shown(first) and HIDDEN not in first._dom_classes


def test_the_style_sheet_hides_what_show_hides() -> None:
    assert f".{HIDDEN} {{ display: none !important; }}" in WIDGET_CSS


@pytest.mark.parametrize(
    ("make", "most"),
    [
        (lambda: HatsTable(hatskit.new_game("hats", players=3, seed=1), ("reader", "greedy", "greedy")), 115),
        (lambda: SombreroTable(hatskit.new_game("sombrero", seed=1), ("reader", "greedy")), 150),
    ],
)
def test_a_table_is_few_widgets_for_the_page_to_load(make, most: int) -> None:
    """Each widget is a model the page loads (issue 9): a Hats table was 226 and then 162, a Sombrero table 361 and
    then 177; most of the difference was a layout or a style of their own for each."""
    before = set(_instances)
    make()
    made = [widget for key, widget in _instances.items() if key not in before]
    layouts = [widget for widget in made if isinstance(widget, widgets.Layout)]
    assert len(made) <= most, len(made)
    assert len(layouts) <= 15, len(layouts)
