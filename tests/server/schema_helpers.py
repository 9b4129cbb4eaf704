"""The protocol's JSON Schema (docs/protocol.schema.json) in tests: loading it, and validating
messages fast enough to check every message of whole games."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# jsonschema ships no type information (its stubs are the separate types-jsonschema).
from jsonschema import Draft202012Validator, validators  # type: ignore[import-untyped]
from jsonschema.exceptions import ValidationError, best_match  # type: ignore[import-untyped]

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json"


def load_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return schema


@functools.cache
def schema_validator() -> Draft202012Validator:
    """The validator of the schema as written (checked against the metaschema once)."""
    schema = load_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def inline_refs(node: Any, defs: dict[str, Any], depth: int = 0) -> Any:
    """``node`` with every ``{"$ref": "#/$defs/x"}`` replaced by the definition itself: the same
    schema (ours has no recursive definitions) without jsonschema's slow reference lookups."""
    assert depth < 50, "a recursive $ref: inline_refs cannot be used"
    if isinstance(node, list):
        return [inline_refs(x, defs, depth) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: inline_refs(v, defs, depth) for k, v in node.items() if k not in ("$ref", "$defs")}
    ref = node.get("$ref")
    if ref is None:
        return out
    assert ref.startswith("#/$defs/"), ref
    # A JSON pointer into the definitions: "#/$defs/view" or "#/$defs/view/properties/turn".
    name, *path = ref.removeprefix("#/$defs/").split("/")
    found = defs[name]
    for key in path:
        found = found[key]
    target = inline_refs(found, defs, depth + 1)
    siblings = {k: v for k, v in out.items() if k != "description"}
    return {**target, **out} if not siblings else {"allOf": [target], **out}


_STRING_KEYS = frozenset({"type", "minLength", "description"})
_VALID_ITEMS: set[tuple[int, str]] = set()  # (id of an items schema, item as JSON text)


def _items(
    validator: Any, items: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    """The ``items`` keyword with the same verdicts, faster on long arrays: an item of a plain
    string schema is checked directly, and an object or array item valid once is not validated
    again (the log, hands, decks, units and actions repeat from one message to the next)."""
    if not isinstance(items, dict) or not validator.is_type(instance, "array"):
        yield from _ITEMS(validator, items, instance, schema)
        return
    plain = items.get("type") == "string" and set(items) <= _STRING_KEYS
    least = items.get("minLength", 0)
    for index in range(len(schema.get("prefixItems", [])), len(instance)):
        item = instance[index]
        if plain and isinstance(item, str) and len(item) >= least:
            continue
        key = (id(items), json.dumps(item)) if isinstance(item, dict | list) else None
        if key in _VALID_ITEMS:
            continue
        errors = list(validator.descend(instance=item, schema=items, path=index))
        if key is not None and not errors:
            _VALID_ITEMS.add(key)
        yield from errors


_ITEMS = Draft202012Validator.VALIDATORS["items"]
_Fast = validators.extend(Draft202012Validator, {"items": _items})


@functools.cache
def fast_validator() -> Any:
    """The schema with its references inlined, validated with the faster ``items``."""
    schema = load_schema()
    return _Fast(inline_refs(schema, schema["$defs"]))


def check_schema(msg: dict[str, Any]) -> None:
    """The message validates against docs/protocol.schema.json; the error names the place.
    (``fast_validator``: the verdict of the schema as written, in a fraction of the time, so
    that every message of whole games can be checked.)"""
    validator = fast_validator()
    if not validator.is_valid(msg):
        error = best_match(validator.iter_errors(msg))
        where = "/".join(str(p) for p in error.absolute_path)
        raise AssertionError(f"schema: at /{where}: {error.message}")


@functools.cache
def _view_validator() -> Any:
    schema = load_schema()
    return _Fast(inline_refs({"$ref": "#/$defs/view"}, schema["$defs"]))


def check_view(view: dict[str, Any]) -> None:
    """A view (as in the state message, or a replay frame's) validates against the schema."""
    validator = _view_validator()
    if not validator.is_valid(view):
        error = best_match(validator.iter_errors(view))
        where = "/".join(str(p) for p in error.absolute_path)
        raise AssertionError(f"schema: view at /{where}: {error.message}")
