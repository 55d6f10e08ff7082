"""The emotion model: taxonomy anchors, encoder, multi-head classifier and feeling -> condition mapping.

Light to import: numpy, the tokenizer and the trained heads load on the first mapping call.

    from temo.emotion import map_feeling, map_feelings, anchors_for, get_mapper
    m = map_feeling("The user is worn out after three failed attempts ...", seed=0)
    m.condition_id, m.instruction
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from .anchors import anchors_for, load_anchors

if TYPE_CHECKING:  # pragma: no cover
    from .mapper import Mapper, Mapping

__all__ = ["anchors_for", "load_anchors", "get_mapper", "map_feeling", "map_feelings", "Mapping"]


def get_mapper(encoder=None) -> "Mapper":
    from .mapper import get_mapper as _g
    return _g(encoder)


def map_feeling(text: str, seed: int = 0) -> "Mapping":
    from .mapper import map_feeling as _m
    return _m(text, seed)


def map_feelings(texts: Sequence[str], seed: int = 0) -> "list[Mapping]":
    from .mapper import map_feelings as _m
    return _m(texts, seed)


def __getattr__(name: str):
    if name == "Mapping":
        from .mapper import Mapping
        return Mapping
    raise AttributeError(name)
