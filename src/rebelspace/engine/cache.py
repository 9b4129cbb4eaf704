"""Values derived once per immutable object (card lists, tables, game contexts).

Such objects are shared but not always hashable cheaply, so the cache keys on ``id()``; it
keeps the object itself beside the value, because an id is reused once its object is gone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def per_object(make: Callable[[K], V], limit: int = 64) -> Callable[[K], V]:
    """``make(obj)`` computed once per object; at most ``limit`` objects are remembered."""
    cache: dict[int, tuple[K, V]] = {}

    def get(obj: K) -> V:
        hit = cache.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        value = make(obj)
        if len(cache) >= limit:
            cache.clear()
        cache[id(obj)] = (obj, value)
        return value

    get.__doc__ = make.__doc__
    return get
