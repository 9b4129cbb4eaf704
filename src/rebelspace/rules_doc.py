"""The complete rules (``docs/rules.md``): ``rebelspace rules`` prints them, the server shows them.

There is one copy to edit, ``docs/rules.md`` in the repository; the package carries it as
``rebelspace/data/rules.md`` (in the repository a link to ``docs/rules.md``, in a built wheel a
copy), which :func:`rules_path` finds from this file, so an installed package prints the rules
too. :func:`rules_page` turns it into a small HTML page for the server's ``/rules``, rendered by
markdown-it-py (the server extra; CommonMark with pipe tables; raw HTML in the document stays
escaped): printing the rules needs no Markdown library. Two small additions to its token
stream: each ruling's entry (a list item starting ``**R19 Title.**``) gets the anchor ``r19``,
so ``/rules#r19`` links to it, and each heading gets the anchor GitHub gives it, which the
document's contents links use.
"""

from __future__ import annotations

import argparse
import html
import os
import re
import sys
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # markdown-it-py is imported where the HTML is made (the server extra)
    from markdown_it import MarkdownIt
    from markdown_it.rules_core import StateCore

__all__ = [
    "RulesNotFoundError",
    "add_rules",
    "rules_html",
    "rules_page",
    "rules_path",
    "rules_section",
    "rules_text",
    "rules_topics",
]


class RulesNotFoundError(FileNotFoundError):
    """``docs/rules.md`` is not where it should be (an install without the repository)."""


def rules_path() -> Path:
    """Where the rules are: ``docs/rules.md`` at the root of the repository (the package's
    ``data/rules.md`` links to it), or the package's copy of it in an installed wheel."""
    return (Path(__file__).parent / "data" / "rules.md").resolve()


def rules_text() -> str:
    """The rules document's Markdown; :class:`RulesNotFoundError` naming the path if missing."""
    path = rules_path()
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RulesNotFoundError(
            f"the rules document {path} is missing (it is docs/rules.md in the repository)"
        ) from None


# ----------------------------------------------------------------------------- sections

_HEADING = re.compile(r"^(#{1,6}) (.+)$")
_RULING_ITEM = re.compile(r"^- \*\*(R[0-9]+) ")


def rules_topics(markdown: str | None = None) -> list[str]:
    """The document's section titles (level-2 and level-3 headings), in order."""
    text = rules_text() if markdown is None else markdown
    return [
        m.group(2)
        for line in text.splitlines()
        if (m := _HEADING.match(line)) and m.group(1) in ("##", "###")
    ]


def rules_section(topic: str, markdown: str | None = None) -> str | None:
    """The Markdown of one part of the rules, or None: a ruling's entry (``R19``), else the
    first section whose title starts with ``topic``, else the first whose title contains it
    (case ignored). A section runs to the next heading of its level or above."""
    text = rules_text() if markdown is None else markdown
    lines = text.splitlines()
    key = " ".join(topic.split()).lower()
    if not key:
        return None
    if re.fullmatch(r"r[0-9]+", key):
        for i, line in enumerate(lines):
            if (m := _RULING_ITEM.match(line)) and m.group(1).lower() == key:
                end = i + 1
                while end < len(lines) and lines[end].startswith("  "):
                    end += 1
                return "\n".join(lines[i:end]) + "\n"
        return None
    headings = [
        (i, len(m.group(1)), m.group(2))
        for i, line in enumerate(lines)
        if (m := _HEADING.match(line))
    ]
    for match in (str.startswith, str.__contains__):
        for k, (i, level, title) in enumerate(headings):
            if level > 1 and match(title.lower(), key):
                end = next((j for j, lv, _ in headings[k + 1 :] if lv <= level), len(lines))
                return "\n".join(lines[i:end]).rstrip() + "\n"
    return None


# ----------------------------------------------------------------------------- the command


def add_rules(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``rebelspace rules``."""
    p = subparsers.add_parser(
        "rules",
        help="print the complete rules, with every ruling (docs/rules.md)",
        description="Print the complete rules of Rebel Space, every ruling R1-R38 included, "
        "as Markdown (docs/rules.md). The game server shows the same page at /rules. With a "
        "TOPIC, print only that part: a ruling (R19) or a section by the start of its title "
        "(blocks, 'card abilities', psion).",
    )
    p.add_argument("topic", nargs="*", metavar="TOPIC", help="a ruling (R19) or a section's title")
    p.set_defaults(handler=cmd_rules)


def cmd_rules(args: argparse.Namespace) -> int:
    """The rules: on a terminal rendered by Rich through a pager (``$PAGER``, else less, as
    pydoc chooses); elsewhere (a pipe, a file) the Markdown as it is."""
    try:
        text = rules_text()
    except RulesNotFoundError as exc:
        print(f"rebelspace rules: {exc}", file=sys.stderr)
        return 1
    topic = " ".join(getattr(args, "topic", None) or [])
    if topic:
        section = rules_section(topic, text)
        if section is None:
            topics = "; ".join(rules_topics(text))
            print(
                f"rebelspace rules: no ruling or section {topic!r}; sections: {topics}",
                file=sys.stderr,
            )
            return 2
        text = section
    if sys.stdout.isatty() and sys.stdin.isatty():
        _page(text)
        return 0
    # A terminal that cannot show a dash gets "?" rather than a UnicodeEncodeError.
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        sys.stdout.write(text.encode(encoding, "replace").decode(encoding))
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader stopped early (`rebelspace rules | head`): not an error. Point stdout at
        # the null device so that Python's final flush does not complain (the Python docs'
        # recipe for SIGPIPE).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return 0


def _page(markdown: str) -> None:
    """The Markdown rendered, in the pager (colours kept: less is told -R unless LESS says
    otherwise)."""
    from rich.console import Console
    from rich.markdown import Markdown

    os.environ.setdefault("LESS", "-R")
    console = Console()
    with console.pager(styles=True):
        console.print(Markdown(markdown))


# ----------------------------------------------------------------------------- the web page

_PAGE_CSS = """
body { max-width: 52rem; margin: 0 auto; padding: 1rem 1.25rem 3rem; line-height: 1.5; }
h1 { font-size: 1.8rem; margin: 0.6em 0 0.4em; }
h2 { font-size: 1.35rem; margin: 1.6em 0 0.4em; }
h3 { font-size: 1.1rem; margin: 1.2em 0 0.3em; color: inherit; }
code { font-size: 0.92em; }
li { margin: 0.35em 0; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.92rem; }
th, td { border: 1px solid #56607a; padding: 3px 8px; vertical-align: top; }
th { background: rgba(127, 127, 127, 0.18); }
tbody tr:nth-child(even) { background: rgba(127, 127, 127, 0.08); }
.table-wrap { overflow-x: auto; }
"""


def rules_page(stylesheet: str | None = None) -> str:
    """The rules as a whole HTML page; ``stylesheet`` is a URL to link (the web client's CSS)."""
    link, css = "", _PAGE_CSS
    if stylesheet:  # the client's sheet is dark: lighter links
        link = f'<link rel="stylesheet" href="{html.escape(stylesheet)}">\n'
        # The client's icon is served beside its sheet (src/rebelspace/web/favicon.svg).
        link += '<link rel="icon" href="/favicon.svg" type="image/svg+xml">\n'
        css += "a { color: #8ab4ff; }\n"
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<title>Rebel Space: the complete rules</title>\n"
        f"{link}<style>{css}</style>\n"
        "</head>\n<body>\n<main>\n"
        f"{rules_html(rules_text())}"
        "</main>\n</body>\n</html>\n"
    )


def rules_html(markdown: str) -> str:
    """HTML for Markdown (CommonMark and pipe tables) with ruling and heading anchors."""
    html: str = _renderer().render(markdown)
    return html


@cache
def _renderer() -> MarkdownIt:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.core.ruler.push("rebelspace_anchors", _anchors)
    # Wide tables scroll on their own on a narrow screen (.table-wrap in the page's CSS); the
    # scrolling box takes the keyboard's focus, so it scrolls without a mouse too (WCAG 2.1.1,
    # axe's scrollable-region-focusable at a phone's width).
    md.add_render_rule(
        "table_open",
        lambda *_: (
            '<div class="table-wrap" tabindex="0" role="region" aria-label="Table"><table>\n'
        ),
    )
    md.add_render_rule("table_close", lambda *_: "</table></div>\n")
    return md


_RULING = re.compile(r"R([0-9]+) ")


def _anchors(state: StateCore) -> None:
    """Give ruling entries the id ``r<n>`` and headings GitHub's id (a repeat gets ``-1``...)."""
    tokens = state.tokens
    seen: dict[str, int] = {}
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            words = tokens[i + 1].children or []  # the heading's text, as GitHub reads it
            slug = _slug("".join(c.content for c in words if c.type in ("text", "code_inline")))
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            token.attrSet("id", f"{slug}-{count}" if count else slug)
        elif token.type == "list_item_open":
            # An item's first block: paragraph_open, inline (hidden <p> in a tight list).
            first = tokens[i + 2] if i + 2 < len(tokens) else None
            if first is None or first.type != "inline" or not first.children:
                continue
            # Its inline content, less the empty text tokens emphasis parsing leaves behind.
            children = [c for c in first.children if c.type != "text" or c.content]
            if (
                len(children) > 1
                and children[0].type == "strong_open"
                and children[1].type == "text"
                and (ruling := _RULING.match(children[1].content))
            ):
                token.attrSet("id", f"r{ruling.group(1)}")


def _slug(title: str) -> str:
    """The anchor of a heading, as GitHub makes it: lower case, punctuation out, "-" for spaces."""
    words = re.sub(r"[^\w\- ]", "", title.lower())
    return words.replace(" ", "-")
