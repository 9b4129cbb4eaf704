"""Writes the cards' art, src/rebelspace/web/card-art.json, from the table buildtools/card_art.toml
and the game-icons.net icon set (CC BY 3.0) as npm's @iconify-json/game-icons has it
(tests/web/js, `make js-deps`).

Only the icons the table names are kept (the whole set is 6 MB), so the package ships a small
file and needs no npm when it runs. Run it after editing the table or upgrading the package:

    python buildtools/card_art.py            # rewrite the file
    python buildtools/card_art.py --check    # exit 1 when the file differs from what it would write

tests/test_card_art.py runs the same comparison when the npm package is installed.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "buildtools" / "card_art.toml"
PACKAGE = ROOT / "tests" / "web" / "js" / "node_modules" / "@iconify-json" / "game-icons"
OUTPUT = ROOT / "src" / "rebelspace" / "web" / "card-art.json"


class CardArtError(Exception):
    """The table names an icon the set does not have, or the set is not installed."""


def load_table(path: Path = TABLE) -> tuple[dict[str, str], dict[str, str]]:
    """The table's (cards, types): card name -> icon, card kind -> icon."""
    with path.open("rb") as f:
        data = tomllib.load(f)
    return dict(data["cards"]), dict(data["types"])


def _icon_body(icons: dict[str, Any], name: str) -> str:
    # An alias (a renamed icon) points at its parent; the set's aliases here carry no
    # transformations, so the parent's body is the alias's.
    seen = set()
    while name not in icons["icons"]:
        alias = icons.get("aliases", {}).get(name)
        if alias is None or name in seen:
            raise CardArtError(f"the icon set has no icon {name!r} (buildtools/card_art.toml)")
        seen.add(name)
        name = alias["parent"]
    body: str = icons["icons"][name]["body"]
    return body


def build(package: Path = PACKAGE, table: Path = TABLE) -> str:
    """The file's text: the table, the set's credit and each named icon's SVG body."""
    if not (package / "icons.json").is_file():
        raise CardArtError(f"{package} is missing: run `make js-deps` (npm ci in tests/web/js)")
    icons = json.loads((package / "icons.json").read_text(encoding="utf-8"))
    info = json.loads((package / "info.json").read_text(encoding="utf-8"))
    version = json.loads((package / "package.json").read_text(encoding="utf-8"))["version"]
    cards, types = load_table(table)
    names = sorted(set(cards.values()) | set(types.values()))
    art = {
        "set": {
            "name": "game-icons.net",
            "package": f"@iconify-json/game-icons@{version}",
            "url": "https://game-icons.net/",
            # Lorc and Delapouite drew most of the set; the site lists every author.
            "authors": "Lorc, Delapouite and the other game-icons.net authors",
            "license": info["license"]["title"],
            "license_url": "https://creativecommons.org/licenses/by/3.0/",
        },
        "size": [icons.get("width", 512), icons.get("height", 512)],
        "types": dict(sorted(types.items())),
        "cards": dict(sorted(cards.items())),
        "icons": {name: _icon_body(icons, name) for name in names},
    }
    return json.dumps(art, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    try:
        text = build()
    except CardArtError as e:
        print(f"card_art: {e}", file=sys.stderr)
        return 2
    if args.check:
        same = OUTPUT.is_file() and OUTPUT.read_text(encoding="utf-8") == text
        print(f"{OUTPUT.name}: {'up to date' if same else 'differs: run buildtools/card_art.py'}")
        return 0 if same else 1
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT} ({len(text.encode()):,} bytes, {text.count(chr(10))} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
