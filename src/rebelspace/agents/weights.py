"""A linear model's weights file, shared by the learnt evaluation (``value``) and the
distilled policy (``distilled``): JSON with the names of the features the weights go with,
the weights, and what made them (``meta``). A file whose feature names are not the code's is
refused: its weights would multiply the wrong numbers quietly."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Self

FILE = "weights.json"


@dataclass(frozen=True, slots=True)
class Weights:
    """Weights and their meta; a subclass names its features, its package (where ``FILE``
    ships) and what to do when a file does not fit."""

    weights: tuple[float, ...]
    meta: dict[str, Any]

    NAMES: ClassVar[tuple[str, ...]] = ()
    PACKAGE: ClassVar[str] = ""
    WHAT: ClassVar[str] = "model"  # "the value model", in the refusal
    AGAIN: ClassVar[str] = "make it again"  # the remedy, in the refusal

    def dot(self, row: Sequence[float]) -> float:
        """``weights . row``, for a row of the features ``NAMES`` names."""
        return sum(w * x for w, x in zip(self.weights, row, strict=True))

    @classmethod
    def shipped(cls) -> Self:
        """The model shipped in the subclass's package, read once per process."""
        model = _SHIPPED.get(cls)
        if not isinstance(model, cls):
            model = _SHIPPED[cls] = cls.load()
        return model

    def to_dict(self) -> dict[str, Any]:
        return {"features": list(self.NAMES), "weights": list(self.weights), "meta": self.meta}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        if list(data["features"]) != list(cls.NAMES):
            raise ValueError(
                f"{cls.WHAT}'s features are not this version's: {cls.AGAIN} "
                f"(model: {len(data['features'])} features, code: {len(cls.NAMES)})"
            )
        return cls(tuple(float(w) for w in data["weights"]), dict(data.get("meta", {})))

    @classmethod
    def load(cls, path: str | Path | None = None) -> Self:
        """The model at ``path``, or the one shipped in the subclass's package."""
        if path is None:
            text = resources.files(cls.PACKAGE).joinpath(FILE).read_text(encoding="utf-8")
        else:
            text = Path(path).read_text(encoding="utf-8")
        return cls.from_dict(json.loads(text))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")


_SHIPPED: dict[type[Weights], Weights] = {}
