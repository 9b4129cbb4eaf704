"""src/rebelspace/web/protocol.d.ts, the types tsc checks the browser's modules against (make
js-check), is what tests/web/js/protocol-types.mjs generates from docs/protocol.schema.json
today: a change to the schema without `make protocol-types` fails here. Needs node and the
pinned npm packages (`make js-deps`), as the browser tests need axe-core."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
JS = ROOT / "tests" / "web" / "js"
TYPES = ROOT / "src" / "rebelspace" / "web" / "protocol.d.ts"


def generated() -> str:
    node = shutil.which("node")
    assert node, "node is not installed"
    assert (JS / "node_modules" / "json-schema-to-typescript").is_dir(), "run `make js-deps`"
    done = subprocess.run(
        [node, "protocol-types.mjs"],
        cwd=JS,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return done.stdout


def test_protocol_types_are_generated_from_the_schema_as_it_is() -> None:
    assert TYPES.read_text(encoding="utf-8") == generated(), (
        "protocol.d.ts is out of date: run `make protocol-types`"
    )


def test_protocol_types_name_every_event_of_the_schema() -> None:
    # The generator's output is the schema's, not an empty or partial file: each event's own
    # shape (reached by the schema only through if/then) is declared.
    schema = json.loads((ROOT / "docs" / "protocol.schema.json").read_text(encoding="utf-8"))
    events = [name for name in schema["$defs"] if name.startswith("event_")]
    text = TYPES.read_text(encoding="utf-8")
    assert len(events) > 20
    for name in events:
        interface = "".join(part.capitalize() for part in name.split("_"))
        assert f"export interface {interface} " in text, interface
