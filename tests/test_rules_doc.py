"""The complete rules (docs/rules.md) and the architecture page (docs/architecture.md).

Every ruling the code cites must resolve inside the repository: one numbered entry per ruling
in docs/rules.md, whose card lists match the ones the engine loads. ``rebelspace rules``
prints the document and the server shows it at /rules.
"""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from rebelspace import cli
from rebelspace.engine import IMPERIAL, REBEL, CardType, load_cards
from rebelspace.rules_doc import RulesNotFoundError, rules_html, rules_path, rules_text
from rebelspace.server.app import create_app

with warnings.catch_warnings():
    # starlette's TestClient warns that its httpx support is deprecated; it still works.
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
RULINGS = range(1, 39)  # R1-R31 from the project's rulings, R32-R38 added by the project

CITATION = re.compile(r"\bR([0-9]{1,2})\b")
ENTRY = re.compile(r"\*\*R([0-9]+) ")
DASH = "—"


def cited_rulings() -> dict[int, list[str]]:
    """Ruling number -> files under src/ and tests/ that cite it (.py, .js, .md)."""
    cited: dict[int, list[str]] = {}
    for folder in ("src", "tests"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".py", ".js", ".md") or not path.is_file():
                continue
            if "node_modules" in path.parts:  # downloaded packages (axe-core for tests/web)
                continue
            text = path.read_text(encoding="utf-8")
            for number in {int(m.group(1)) for m in CITATION.finditer(text)}:
                cited.setdefault(number, []).append(str(path.relative_to(ROOT)))
    return cited


def entry_numbers(text: str) -> list[int]:
    return [int(m.group(1)) for m in ENTRY.finditer(text)]


# ----------------------------------------------------------------------------- rulings


def test_rules_path_is_docs_rules_md_in_the_repository() -> None:
    assert rules_path() == RULES
    assert rules_text() == RULES.read_text(encoding="utf-8")


def test_every_ruling_cited_in_src_and_tests_has_exactly_one_entry() -> None:
    cited = cited_rulings()
    assert cited, "no ruling citations found: is the scan looking in the right place?"
    counts = {n: entry_numbers(rules_text()).count(n) for n in cited}
    wrong = {f"R{n}": (counts[n], cited[n][:3]) for n in sorted(cited) if counts[n] != 1}
    assert not wrong, f"rulings cited with no entry or several (entries, cited in): {wrong}"


def test_rules_doc_numbers_rulings_r1_to_r38_without_gaps_or_duplicates() -> None:
    numbers = entry_numbers(rules_text())
    assert sorted(numbers) == list(RULINGS)


def test_each_ruling_entry_starts_its_line_with_number_and_title() -> None:
    entry_lines = [line for line in rules_text().splitlines() if ENTRY.search(line)]
    assert len(entry_lines) == len(RULINGS)
    for line in entry_lines:
        assert re.match(r"^- \*\*R[0-9]+ [A-Z][^*]*\.\*\* ", line), line


def test_r19_entry_comes_with_the_sheets_worked_example() -> None:
    text = rules_text()
    r19 = text.index("**R19 Casualties.**")
    example = text.index("**Worked example (from the sheet).**")
    assert r19 < example < text.index("**R20 ")
    section = text[example : text.index("**R20 ")]
    for words in ("Princess", "Air Speeder", "Grav Cycle", "Soldiers", "Battle Walkers"):
        assert words in section


# ----------------------------------------------------------------------------- card lists


def card_table(text: str, heading: str) -> list[list[str]]:
    """The body rows of the first pipe table after ``heading``, as lists of cell texts."""
    start = text.index(f"\n{heading}\n")
    rows: list[list[str]] = []
    in_table = False
    for line in text[start + len(heading) + 2 :].splitlines():
        if line.startswith("|"):
            in_table = True
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif in_table:
            break
    header, rule, *body = rows
    assert header[:7] == ["Card", "Copies", "Type", "Cost", "Ground", "Space", "Damage"]
    assert set(rule[0]) <= set("-:")
    return body


def expected_row(t: CardType) -> list[str]:
    def cell(field: str) -> str:
        if t.is_action or (field == "cost" and t.is_psion):
            return DASH  # not printed: actions have no ratings, psion and action cards no cost
        return str(getattr(t, field))

    fields = (cell("cost"), cell("ground"), cell("space"), cell("damage"))
    return [t.name, str(t.count), t.printed_type, *fields, t.notes]


@pytest.mark.parametrize(
    ("side", "heading"), [(REBEL, "### Rebel cards"), (IMPERIAL, "### Imperial cards")]
)
def test_card_tables_match_the_cards_the_engine_loads(side: int, heading: str) -> None:
    db = load_cards()
    *rows, total = card_table(rules_text(), heading)
    assert rows == [expected_row(t) for t in db.side_types(side)]
    assert total[0] == "**Total**"
    assert total[1] == f"**{db.deck_size(side)}**"
    assert sum(int(row[1]) for row in rows) == db.deck_size(side)


def test_r1_entry_states_the_deck_sizes_of_the_card_lists() -> None:
    db = load_cards()
    r1 = next(line for line in rules_text().splitlines() if "**R1 " in line)
    r1 += rules_text().split(r1, 1)[1].split("\n- ", 1)[0]
    assert f"{db.deck_size(REBEL)} Rebel and {db.deck_size(IMPERIAL)} Imperial" in " ".join(
        r1.split()
    )


# ----------------------------------------------------------------------------- rebelspace rules


def test_rebelspace_rules_prints_the_document(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules"]) == 0
    out, err = capsys.readouterr()
    assert "R19" in out
    assert out == RULES.read_text(encoding="utf-8")
    assert err == ""


def test_rebelspace_rules_prints_plainly_into_a_pipe() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rebelspace.cli", "rules"],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout == RULES.read_bytes()
    assert done.stderr == b""


def test_missing_rules_document_is_an_error_naming_its_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "docs" / "rules.md"
    monkeypatch.setattr("rebelspace.rules_doc.rules_path", lambda: missing)
    with pytest.raises(RulesNotFoundError, match=re.escape(str(missing))):
        rules_text()
    assert cli.main(["rules"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert str(missing) in err


# ----------------------------------------------------------------------------- the /rules page


def test_server_rules_page_is_html_with_every_ruling(tmp_path: Path) -> None:
    with TestClient(create_app(str(tmp_path / "g.sqlite3"))) as client:
        page = client.get("/rules")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    body = page.text
    assert '<html lang="en">' in body
    assert "<title>" in body
    assert '<link rel="stylesheet" href="/style.css">' in body
    assert "<style>" in body and ".table-wrap" in body
    assert body.count("<table>") >= 2
    assert '<h2 id="card-lists">Card lists</h2>' in body
    for n in RULINGS:  # each ruling's entry, with an anchor to link to (/rules#r19)
        assert f'<li id="r{n}"><strong>R{n} ' in body, f"R{n}"
    assert "R38" in body


def test_the_rules_read_for_players_and_leave_the_tools_to_the_last_section() -> None:
    # Commands, source paths and code names are for those who run the game: only in the
    # closing "About this page", never in the rules a player reads first.
    text = rules_text()
    rules, about = text.split("\n## About this page\n")
    for tool in ("`rebelspace", "`src/", "`--rule", "`scenarios/", "RulesOptions"):
        assert tool not in rules, tool
        assert tool in about, tool
    assert "## " not in about  # the last section


def test_server_rules_page_says_so_when_the_document_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("rebelspace.rules_doc.rules_path", lambda: tmp_path / "none.md")
    with TestClient(create_app(str(tmp_path / "g.sqlite3"))) as client:
        page = client.get("/rules")
    assert page.status_code == 404
    assert "rules" in page.text


def test_rules_html_escapes_text_and_renders_tables_lists_and_links() -> None:
    markdown = (
        "# A <b> & B\n\n"
        "Some `x < y` and **bold** and *soft* [link](#a-b).\n\n"
        "<script>alert(1)</script>\n\n"
        "- **R1 Item.** one\n  continued\n- **Not a ruling.** two\n- R2 plain three\n\n"
        "| Card | Copies |\n|---|---:|\n| <i>Soldier</i> | 10 |\n"
    )
    out = rules_html(markdown)
    assert '<h1 id="a-b--b">A &lt;b&gt; &amp; B</h1>' in out
    assert "<code>x &lt; y</code>" in out
    assert "<strong>bold</strong>" in out and "<em>soft</em>" in out
    assert '<a href="#a-b">link</a>' in out
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    assert '<li id="r1"><strong>R1 Item.</strong> one\ncontinued</li>' in out
    assert "<li><strong>Not a ruling.</strong> two</li>" in out  # only rulings get an anchor
    assert "<li>R2 plain three</li>" in out
    assert out.count(" id=") == 2  # the heading and R1
    assert '<div class="table-wrap" tabindex="0" role="region" aria-label="Table"><table>' in out
    assert "</table></div>" in out
    assert '<th style="text-align:right">Copies</th>' in out
    assert "<td>&lt;i&gt;Soldier&lt;/i&gt;</td>" in out
    assert "<b>" not in out and "<i>" not in out and "<script>" not in out


def test_rules_html_gives_a_repeated_heading_githubs_numbered_anchor() -> None:
    out = rules_html("## Ion Cannon\n\ntext\n\n### The `Ion` Cannon!\n\n## Ion Cannon\n")
    assert '<h2 id="ion-cannon">Ion Cannon</h2>' in out
    assert '<h3 id="the-ion-cannon">The <code>Ion</code> Cannon!</h3>' in out
    assert '<h2 id="ion-cannon-1">Ion Cannon</h2>' in out


def test_every_link_inside_the_rules_page_has_its_anchor() -> None:
    out = rules_html(rules_text())
    ids = set(re.findall(r' id="([^"]+)"', out))
    targets = set(re.findall(r'href="#([^"]+)"', out))
    assert targets, "the contents links are missing"
    assert targets <= ids, sorted(targets - ids)
    assert {"r19", "r38", "card-lists", "battles-and-casualties"} <= ids


def test_web_client_header_links_to_the_rules_in_a_new_tab() -> None:
    index = (ROOT / "src" / "rebelspace" / "web" / "index.html").read_text(encoding="utf-8")
    link = re.search(r'<a href="/rules"[^>]*>Rules</a>', index)
    assert link is not None
    assert 'target="_blank"' in link.group(0)


# ----------------------------------------------------------------------------- architecture


def test_architecture_doc_has_style_points_numbered_1_to_10() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("## Style points", 1)[1].split("\n## ", 1)[0]
    numbers = [int(n) for n in re.findall(r"^([0-9]+)\. \*\*", section, flags=re.MULTILINE)]
    assert numbers == list(range(1, 11))


def test_code_cites_style_points_in_architecture_doc_not_style_md() -> None:
    old = re.compile(r"STYLE(\.md)?\b")
    citing = [
        str(path.relative_to(ROOT))
        for folder in ("src", "tests")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path != Path(__file__).resolve() and old.search(path.read_text(encoding="utf-8"))
    ]
    assert not citing
