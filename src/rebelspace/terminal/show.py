"""What the terminal game prints, as Rich renderables that wrap to the terminal's width.

Over 500 lines: one renderable per thing on the table (zones, battle, hand, log, card details),
each short; they share the colour and width rules at the top, which a split would scatter.

Everything shown comes from the person's view (R5) and the events they may see: numbers are
the view's (current ratings, battle values, damage after shields, ``engine/values.py``) and
the log lines are the engine's ``render_event``; nothing here works a rule out or reads text
back. Colour says whose a thing is (Rebel orange, Imperial blue); without a terminal (a pipe,
a test) the same text comes out plain.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text

from rebelspace.engine import (
    SIDE_NAMES,
    ActionView,
    CardDB,
    Event,
    GroupKind,
    PlayerView,
    SideView,
    UnitView,
    render_event,
)
from rebelspace.engine import events as ev
from rebelspace.engine.cards import ACTION, PSION
from rebelspace.position_text import battle_lines

from .cards import brief

STYLES = ("bold dark_orange", "bold deep_sky_blue1")  # by player: Rebel, Imperial
SIDE_INDEX = {name: p for p, name in enumerate(SIDE_NAMES)}
NOTHING = "-"


def side_style(side: str) -> str:
    return STYLES[SIDE_INDEX[side]]


class Hanging:
    """Paragraphs that wrap to the console's width, the first flush left and the others, and
    every wrapped line, two spaces in (a battle's results: ``BattleBook``)."""

    def __init__(self, paragraphs: Sequence[Text]) -> None:
        self.paragraphs = paragraphs

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for k, paragraph in enumerate(self.paragraphs):
            first, then = ("", "  ") if k == 0 else ("  ", "    ")
            width = max(options.max_width - len(then), 12)
            for n, line in enumerate(paragraph.copy().wrap(console, width)):
                out = Text(then if n else first, end="\n")
                out.append_text(line)
                out.rstrip()
                yield out


class Labelled:
    """Rows of a label and a text that wraps under itself (never under the label), to the
    console's width, with no trailing spaces."""

    def __init__(self, rows: Iterable[tuple[str, str | Text]], indent: int = 2) -> None:
        self.rows = [(" " * indent + label, text) for label, text in rows]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if not self.rows:
            return
        head = max(len(label) for label, _ in self.rows) + 1
        width = max(options.max_width - head, 12)
        for label, text in self.rows:
            body = text.copy() if isinstance(text, Text) else Text(text)
            for k, line in enumerate(body.wrap(console, width)):
                line.rstrip()
                out = Text((label if k == 0 else "").ljust(head), no_wrap=True, end="\n")
                out.append_text(line)
                out.rstrip()
                yield out


def labelled(rows: Iterable[tuple[str, str | Text]], indent: int = 2) -> Labelled:
    return Labelled(rows, indent)


# --- units and cards --------------------------------------------------------------------------


def unit_groups(units: Sequence[UnitView], side: str) -> list[str]:
    """Identical units (name, attachments, controller and current ratings) as one entry:
    ``Interceptors ×3 (0/2/1)``, in the order they first appear."""
    counts: dict[tuple[object, ...], int] = {}
    for u in units:
        key = (u.name, u.attachments, u.owner, u.ground, u.space, u.damage)
        counts[key] = counts.get(key, 0) + 1
    out = []
    for (name, attachments, owner, g, s, d), n in counts.items():
        text = str(name)
        if attachments:
            text += " [" + ", ".join(attachments) + "]"  # type: ignore[arg-type]
        if owner != side:
            text += f" (converted {owner} hero)"
        if n > 1:
            text += f" ×{n}"
        out.append(f"{text} ({g}/{s}/{d})")
    return out


def joined(entries: Sequence[str]) -> str:
    return ", ".join(entries) or NOTHING


def hand_entries(hand: Sequence[str], db: CardDB) -> list[str]:
    """The hand, copies together, each with its cost and ratings: ``Rebel Soldier ×2 (cost
    1, 1/0/1)``. Not numbered: the only numbers on the table are the choices'."""
    counts: dict[str, int] = {}
    for name in hand:
        counts[name] = counts.get(name, 0) + 1
    return [
        f"{name}{f' ×{n}' if n > 1 else ''} ({brief(db.by_name(name))})"
        for name, n in counts.items()
    ]


# --- the table --------------------------------------------------------------------------------


def side_rows(side: SideView, db: CardDB) -> list[tuple[str, str]]:
    """A side's zones as labelled rows: active, inactive, and the hand when it is known."""
    rows = [
        ("active  ", joined(unit_groups(side.active, side.player))),
        ("inactive", joined(unit_groups(side.inactive, side.player))),
    ]
    if side.hand is not None:
        rows.append(("hand    ", joined(hand_entries(side.hand, db))))
    return rows


def side_block(
    side: SideView, label: str, points: int | None, db: CardDB, hide: Collection[str] = ()
) -> list[RenderableType]:
    """A side's counts, then its zones, but for the rows in ``hide`` (``"rebel active"``...)."""
    head = Text(label, style=side_style(side.player))
    top = f" (top: {side.discard[-1]})" if side.discard else ""
    head.append(
        f"  hand {side.hand_size} · deck {side.deck_size} · discard {len(side.discard)}{top}"
    )
    if points is not None:
        head.append(f" · {points} deploy points", style="bold")
    rows: list[tuple[str, str | Text]] = [
        (label, text)
        for label, text in side_rows(side, db)
        if f"{side.player} {label.strip()}" not in hide
    ]
    return [head, labelled(rows)] if rows else [head]


def table_rows(view: PlayerView, db: CardDB) -> dict[str, str]:
    """Every row ``table`` may show, by name (``"imperial inactive"``, ``"spied 5"``), to
    tell which changed since the table was last shown."""
    rows = {
        f"{side.player} {label.strip()}": text
        for side in (view.opponent, view.you)
        for label, text in side_rows(side, db)
    }
    rows.update({f"spied {turn}": ", ".join(hand) for turn, hand in view.revealed_hands})
    return rows


def table(
    view: PlayerView, db: CardDB, computer: str, hide: Collection[str] = ()
) -> list[RenderableType]:
    """The table as the person sees it: both sides, the battle in progress, spied hands;
    but for the rows in ``hide`` (``table_rows``' names: those shown as they are now)."""
    whose = "your" if view.active_player == view.player else f"{view.active_player.capitalize()}'s"
    title = Text(f"Turn {view.turn}: {whose} turn, {view.phase} phase", style="bold")
    if hide:
        title.append(" (unchanged zones left out; t: all)", style="dim")
    out: list[RenderableType] = [title]
    out += side_block(
        view.opponent, f"{view.opponent.player.capitalize()} ({computer})", None, db, hide
    )
    out += side_block(view.you, f"{view.player.capitalize()} (you)", view.deploy_points, db, hide)
    out += battle(view)
    for turn, hand in view.revealed_hands:
        if f"spied {turn}" in hide:
            continue
        seen = ", ".join(hand) or "no cards"
        spied = f"{view.opponent.player.capitalize()}'s hand on turn {turn}:"
        out.append(labelled([(spied, seen)], indent=0))
    return out


def battle(view: PlayerView) -> list[RenderableType]:
    """The battle in progress (nothing outside one): its head and a row a group."""
    if view.battle is None:
        return []
    lines = battle_lines(view.battle, view.active_player, view.step, grouped=True)
    rows = [line.strip().partition(": ") for line in lines[1:]]
    return [
        Text(lines[0], style="bold"),
        labelled([(a + b.rstrip(), c) if b else ("", a) for a, b, c in rows]),
    ]


def battle_key(view: PlayerView) -> str | None:
    """What ``battle`` would show, to tell whether it changed (None: no battle)."""
    if view.battle is None:
        return None
    return "\n".join(battle_lines(view.battle, view.active_player, view.step))


# --- decisions --------------------------------------------------------------------------------

_CARD_KINDS = frozenset(
    {"deploy", "attach", "play_trick", "play_psion", "play_end", "play_end_on", "discard"}
)


def choice_text(action: ActionView, db: CardDB, known: Collection[str] = ()) -> str:
    """An action's text, with the cost and ratings of the card it plays from the hand (but
    for the cards in ``known``: those the person was told this turn)."""
    if action.kind in _CARD_KINDS and action.card is not None and action.card not in known:
        card = db.by_name(action.card)
        if card.kind not in (ACTION, PSION) or action.kind == "play_psion":
            return f"{action.text}  ({brief(card)})"
    return action.text


def choices(
    view: PlayerView,
    db: CardDB,
    numbers: Sequence[int] | None = None,
    *,
    hint: bool = True,
    known: Collection[str] = (),
) -> list[RenderableType]:
    """The one-line question and the legal actions with their numbers (``numbers``, in the
    order of the view's legal actions; default 1, 2, ...), as few lines as they read well in:
    choices that differ only in their card share a line (``deploy: 1. Rebel Soldier (cost 1,
    1/0/1) · 2. Grav Cycles (...)``), and short choices all fit on one (``1. draw 1 · 2. draw
    2``), on the question's line when they fit. ``hint``: say how to answer. ``known``: cards
    whose cost and ratings the person was told this turn (not said again)."""
    where = f"{view.phase} phase" + (
        f", {view.step}" if view.step.value != view.phase.value else ""
    )
    points = view.deploy_points
    left = "" if points is None else f", {points} point{'s' if points != 1 else ''} left"
    head = Text(f"Your move ({where}{left}):", style="bold")
    if hint:
        head.append("  number or text; help: ?", style="dim")
    shown = list(numbers) if numbers is not None else list(range(1, len(view.legal_actions) + 1))
    rows: list[tuple[str, list[str]]] = []  # (the words the choices share, each choice)
    for n, action in zip(shown, view.legal_actions, strict=True):
        shared, rest = _split(action, db, known)
        if shared and rows and rows[-1][0] == shared:
            rows[-1][1].append(f"{n}. {rest}")
        else:
            rows.append((shared, [f"{n}. {rest}" if not shared else f"{n}. {rest}"]))
    lines: list[str] = []
    verb = None  # "block": the verb of the last line's "block group 1 with", to share it
    for shared, items in rows:
        said = f"{shared}: " + " · ".join(items) if shared else items[0]
        first, _, more = shared.partition(" ")
        numbered = any(c.isdigit() for c in shared)
        if numbered and first == verb:  # "block group 1 with: 1. … ; group 2 with: 3. …"
            lines[-1] += f"; {more}: " + " · ".join(items)
        else:
            lines.append(said)
        verb = first if numbered else None
    # On the question's line(s) when the question and its choices take two lines at most.
    if len(head) + sum(len(line) + 3 for line in lines) <= 150:
        return [head.append(" " + " · ".join(lines))]
    return [head, labelled([("", line) for line in lines], indent=1)]


def _split(action: ActionView, db: CardDB, known: Collection[str] = ()) -> tuple[str, str]:
    """A choice as the words it may share with others and its own: ``("deploy", "Rebel
    Soldier (cost 1, 1/0/1)")``, ``("block group 2 with", "Princess")``, or ``("", text)``
    when its card does not end its text."""
    text = choice_text(action, db, known)
    card = action.card
    if card is None or not action.text.endswith(" " + card):
        return "", text
    shared = action.text[: -len(card) - 1]
    return shared, text[len(shared) + 1 :].replace("  (", " (")


# --- events ----------------------------------------------------------------------------------


def event_line(event: Event, names: Sequence[str]) -> Labelled:
    """One log line, ``  | `` and the engine's text, coloured by the player who acted."""
    player = getattr(event, "player", None)
    style = STYLES[player] if isinstance(player, int) and player in (0, 1) else ""
    if isinstance(event, ev.TurnStarted | ev.GameOver):
        style = "bold"
    return labelled([("|", Text(render_event(event, names), style=style.replace("bold ", "")))])


class LogRun:
    """Consecutive log lines of one player, said as one line: ``-- Turn 4: Imperial -- draws 2
    cards; deploys Battle Walkers, Troopers ×2``. A line whose subject is not a player (or
    is a possessive, "Imperial's hand: ...") stands alone."""

    def __init__(self) -> None:
        self.subject: str | None = None
        self.parts: list[str] = []
        self.deployed: dict[int, list[str]] = {}  # part index: the cards its "deploys" names
        self.texts: list[str] = []  # the lines added, as they came

    def __bool__(self) -> bool:
        return bool(self.parts)

    def clear(self) -> None:
        self.subject, self.parts, self.deployed, self.texts = None, [], {}, []

    @staticmethod
    def _subject(text: str) -> str | None:
        if text.startswith("-- Turn ") and text.endswith(" --"):
            return text.rsplit(" ", 2)[-2]
        first = text.split(" ", 1)[0]
        return first if first.lower() in SIDE_INDEX else None

    def add(self, text: str) -> bool:
        """Add ``text`` to the run; False (nothing added) when it belongs to another line."""
        subject = self._subject(text)
        if not self.parts:
            self.subject, self.parts, self.texts = subject, [text], [text]
            self._note_deploy(0, text, subject)
            return True
        if subject is None or subject != self.subject or text.startswith("-- "):
            return False
        self.texts.append(text)
        rest = text[len(subject) + 1 :]
        last = len(self.parts) - 1
        if rest.startswith("deploys ") and last in self.deployed:
            self.deployed[last].append(rest[len("deploys ") :])
            return True
        self.parts.append(rest)
        self._note_deploy(len(self.parts) - 1, rest, None)
        return True

    def _note_deploy(self, k: int, text: str, subject: str | None) -> None:
        verb = f"{subject} deploys " if subject else "deploys "
        if text.startswith(verb):
            self.deployed[k] = [text[len(verb) :]]

    def line(self) -> Labelled:
        style = side_style(self.subject.lower()) if self.subject else ""
        return labelled([("|", Text(self.text(), style=style.replace("bold ", "")))])

    def text(self) -> str:
        """The run as one line of text."""
        parts = list(self.parts)
        for k, cards in self.deployed.items():
            parts[k] = parts[k][: parts[k].index("deploys ")] + "deploys " + joined(grouped(cards))
        text = parts[0]
        if len(parts) > 1:
            text += (" " if text.endswith(" --") else "; ") + "; ".join(parts[1:])
        return text


class BattleBook:
    """The battles of one attack phase, gathered from their events and said when the phase is
    over: each group that fought against its blockers or target, both values, the result and
    the casualties picked, a line for all the groups that got through with the damage each
    dealt, and the cards the damage discarded."""

    KINDS = (
        ev.Attacked,
        ev.BattleResolved,
        ev.CasualtyPicked,
        ev.GotThrough,
        ev.DamageDealt,
        ev.IonCannonFired,
    )

    def __init__(self, person: int | None = None) -> None:
        self.events: list[Event] = []
        #: Whose results are won or lost (green or red; none: results uncoloured).
        self.person = person

    def add(self, event: Event) -> None:
        if isinstance(event, ev.Attacked) and any(
            not isinstance(e, ev.Attacked) for e in self.events
        ):
            self.events.clear()  # a new attack phase (Multiple Targets) after a shown one
        if isinstance(event, self.KINDS):
            self.events.append(event)

    def table(self, names: Sequence[str], *, narrow: bool = False) -> Hanging | Group | None:
        """The results, once at least one group fought or got through; then the book is
        empty. ``narrow``: a line a group and the title on a line of its own (the board's
        log pane)."""
        fought = [e for e in self.events if isinstance(e, ev.BattleResolved | ev.GotThrough)]
        if not fought:
            return None
        attacks = {e.group: e for e in self.events if isinstance(e, ev.Attacked)}
        if not attacks:
            self.events.clear()
            return None
        attacker = next(iter(attacks.values())).player
        title = f"{('Rebel', 'Imperial')[attacker]} attack"
        rows = [self._row(group, attack, names) for group, attack in attacks.items()]
        lines: list[Text] = []
        if narrow:
            lines = [Text(title, style=STYLES[attacker]), *map(_narrow_row, rows)]
        else:
            # A line a group that fought, and one for all the groups that got through: the
            # battle in as few lines as it reads well in (issue 32).
            said = [_narrow_row(row) for row in rows if row[2] != "unblocked"]
            through = [row for row in rows if row[2] == "unblocked"]
            if through:
                line = Text("got through: ")
                for k, row in enumerate(through):
                    line.append(" · " if k else "")
                    line.append(f"{row[0]} {row[1]} (damage ")
                    damage = row[5]
                    line.append_text(damage if isinstance(damage, Text) else Text(damage))
                    line.append(")")
                said.append(line)
            head = Text()
            head.append(f"{title}: ", style=STYLES[attacker])
            lines = [head.append_text(said[0]), *said[1:]]
        for e in self.events:
            if isinstance(e, ev.DamageDealt):
                discarded = joined(grouped(names[c] for c in e.cards))
                lines.append(
                    Text(
                        f"{('Rebel', 'Imperial')[e.player]} discards {discarded} from the deck "
                        f"({e.left} left)"
                    )
                )
        self.events.clear()
        return Group(*lines) if narrow else Hanging(lines)

    def _row(self, group: int, attack: ev.Attacked, names: Sequence[str]) -> tuple[str | Text, ...]:
        kind = GroupKind(attack.kind).wire.value
        won: bool | None = None  # for the person: won, lost, or neither (both destroyed)
        attackers = f"{joined(grouped(names[c] for c in attack.units))} = {attack.value}"
        defenders, result, damage = NOTHING, "", ""
        casualties = [
            names[e.card]
            for e in self.events
            if isinstance(e, ev.CasualtyPicked) and e.group == group
        ]
        for e in self.events:
            if isinstance(e, ev.IonCannonFired) and e.group == group:
                result = f"{names[e.ship]} shot down; "
            if isinstance(e, ev.BattleResolved) and e.group == group:
                attackers = f"{joined(grouped(names[c] for c in e.attackers))} = {e.attack_value}"
                how = "" if e.blocked else "target "
                defenders = (
                    f"{how}{joined(grouped(names[c] for c in e.defenders))} = {e.defense_value}"
                )
                result += ev.RESULT_NAMES[e.result]
                if e.result != ev.BattleResult.BOTH_DESTROYED:  # both lose: neither won
                    won = (e.result == ev.BattleResult.ATTACKER_WON) == (e.player == self.person)
            if isinstance(e, ev.GotThrough) and e.group == group:
                defenders, result = "unblocked", result + "got through"
                damage = str(e.damage) + (" (shields)" if e.shields else "")
                won = e.player == self.person
        return (
            f"{group + 1} {kind}",
            attackers,
            defenders,
            Text(result, style=self._won_style(won)),
            joined(grouped(casualties)) if casualties else "",
            Text(damage, style="bold red") if damage else "",
        )

    def _won_style(self, won: bool | None) -> str:
        if self.person is None:
            return ""
        return "yellow" if won is None else "green" if won else "red"


def _narrow_row(row: tuple[str | Text, ...]) -> Text:
    """A battle's row as a line that wraps: ``1 space: Bombers = 2 vs unblocked: got
    through; damage 2``."""
    group, attackers, defenders, result, casualties, damage = row
    line = Text(f"{group} {attackers} vs {defenders}: ")
    line.append_text(result if isinstance(result, Text) else Text(result))
    if casualties:
        line.append(f"; casualties {casualties}")
    if damage:
        line.append("; damage ")
        line.append_text(damage if isinstance(damage, Text) else Text(damage))
    return line


def grouped(names: Iterable[str]) -> list[str]:
    """``Troopers ×2, Battle Walkers``: repeated names once, with their number."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return [name + (f" ×{n}" if n > 1 else "") for name, n in counts.items()]


def console_width(console: Console) -> int:
    return console.size.width
