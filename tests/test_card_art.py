"""The cards' art (issue 31): src/rebelspace/web/card-art.json is what buildtools/card_art.py
writes from its table and the pinned game-icons.net package, every card has its own icon, and
every icon the file names is in it. The package ships the file, so it runs without npm."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rebelspace.engine import load_cards

ROOT = Path(__file__).resolve().parent.parent
ART = ROOT / "src" / "rebelspace" / "web" / "card-art.json"
KINDS = ("hero", "ground", "space", "gs", "attachment", "psion", "action", "unknown")


def card_art_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("card_art", ROOT / "buildtools" / "card_art.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("card_art", module)
    spec.loader.exec_module(module)
    return module


def shipped() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ART.read_text(encoding="utf-8"))
    return data


def test_every_card_of_the_card_list_has_its_own_icon() -> None:
    cards, _ = card_art_module().load_table()
    names = {t.name for t in load_cards()}
    assert sorted(names - set(cards)) == [], "cards with no icon in buildtools/card_art.toml"
    assert sorted(set(cards) - names) == [], "icons for cards the card list does not have"


def test_every_kind_has_a_type_icon_for_cards_not_in_the_table() -> None:
    _, types = card_art_module().load_table()
    assert sorted(types) == sorted(KINDS)
    assert {t.kind for t in load_cards()} <= set(types)


def test_the_shipped_file_holds_the_table_and_every_icon_it_names() -> None:
    cards, types = card_art_module().load_table()
    art = shipped()
    assert art["cards"] == cards
    assert art["types"] == types
    assert set(art["icons"]) == set(cards.values()) | set(types.values())
    for name, body in art["icons"].items():
        assert body.startswith("<path") or body.startswith("<g"), name
        assert "<script" not in body.lower() and not re.search(r"\son\w+=", body), name
    # The credit CC BY 3.0 asks for, shown on the gallery page.
    assert art["set"]["license"] == "CC BY 3.0"
    assert art["set"]["url"] == "https://game-icons.net/"


def test_the_shipped_file_names_the_pinned_icon_package() -> None:
    lock = json.loads((ROOT / "tests" / "web" / "js" / "package-lock.json").read_text())
    pinned = lock["packages"]["node_modules/@iconify-json/game-icons"]["version"]
    declared = json.loads((ROOT / "tests" / "web" / "js" / "package.json").read_text())
    assert declared["dependencies"]["@iconify-json/game-icons"] == pinned  # exact, no range
    assert shipped()["set"]["package"] == f"@iconify-json/game-icons@{pinned}"


@pytest.mark.skipif(
    not (card_art_module().PACKAGE / "icons.json").is_file(),
    reason="the npm icon set is not installed (make js-deps)",
)
def test_the_shipped_file_is_what_the_script_writes_from_the_package() -> None:
    assert card_art_module().build() == ART.read_text(encoding="utf-8"), (
        "src/rebelspace/web/card-art.json is stale: run python buildtools/card_art.py"
    )


def test_an_icon_the_set_does_not_have_is_a_clear_error(tmp_path: Path) -> None:
    module = card_art_module()
    if not (module.PACKAGE / "icons.json").is_file():
        pytest.skip("the npm icon set is not installed (make js-deps)")
    table = tmp_path / "table.toml"
    table.write_text('[types]\nhero = "person"\n[cards]\n"Princess" = "no-such-icon"\n')
    with pytest.raises(module.CardArtError, match="no-such-icon"):
        module.build(table=table)
