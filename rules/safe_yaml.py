"""The one way the project reads YAML: libyaml's safe loader, held to what hostile input may not do.

Every YAML file rules40k reads goes through here (spec/rulesets.yaml, the chapters, the annotations and layouts,
the concept maps, a game for ``rules40k score``), so each promise below holds for all of them:

- no Python object is built from a tag (the safe loader);
- a key written twice in one mapping is refused (YAML would keep the last one silently);
- a whole number too long for ``int()`` (more than 4,300 digits) is refused at its place;
- anchors and aliases may repeat a value (the domain pins do), but a document whose aliases repeat more than
  ``MAX_REPEATED_VALUES`` values in all is refused, and so is an alias inside the value it names (an endless
  value). A "billion laughs" of 1.7 KB would otherwise expand to 10^9 values and exhaust memory in whatever
  walks it. The check reads the document's events once, before any value is built, and stops at the alias
  that crosses the limit, whose line it names.

Every refusal is a ``yaml.MarkedYAMLError``: each reader's "FILE: line N, column M is not valid YAML (...)"
sentence names the place.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator

import yaml

_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's when installed: 40 times faster

#: How many values (scalars, lists and mappings, counted with everything inside them) the aliases of one document
#: may repeat in all. The committed files repeat at most about 2,500 (spec/core/annotations/examples/02-datasheets.yaml);
#: walking 100,000 values takes a few hundredths of a second.
MAX_REPEATED_VALUES = 100_000


class AliasError(yaml.MarkedYAMLError):
    """Aliases that repeat too much, or an alias inside the value it names; ``problem_mark`` is the alias."""


class _UniqueKeys:
    """A constructor that refuses a key written twice in one mapping."""

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            seen: set = set()
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=deep)
                if isinstance(key, (str, int, float, bool)) and key in seen:
                    raise yaml.constructor.ConstructorError(None, None, f"found the key {key!r} twice",
                                                            key_node.start_mark)
                seen.add(key)
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node):
        """A whole number, or a refusal at its place: ``int()`` reads at most 4,300 digits and raises a bare
        ValueError past them."""
        try:
            return super().construct_yaml_int(node)
        except ValueError:
            raise yaml.constructor.ConstructorError(None, None, f"a number of {len(node.value):,} characters is "
                                                    "too long to read", node.start_mark) from None


class Loader(_UniqueKeys, _Base):  # type: ignore[misc,valid-type]
    """The safe loader, refusing a key written twice in one mapping. Use ``load``/``compose``, which also check the
    aliases: this class alone does not."""


def check_aliases(text: str) -> None:
    """Refuse a document whose aliases repeat more than MAX_REPEATED_VALUES values, or name a value they are in.

    Without an ``&`` the text defines no anchor, so it can hold no alias (libyaml refuses an undefined one)."""
    if "&" not in text:
        return
    for _ in _checked_events(text):
        pass


def _checked_events(text: str) -> Iterator[yaml.Event]:
    """The document's parsing events, read lazily; an alias that repeats too much is refused when it comes."""
    open_sizes: list[int] = []  # the values counted so far in each list or mapping still open
    open_anchors: list[str | None] = []
    sizes: dict[str, int | None] = {}  # each anchor's value count; None while its list or mapping is still open
    repeated = 0

    def counted(size: int) -> None:
        if open_sizes:
            open_sizes[-1] += size

    for event in yaml.parse(text, Loader=_Base):
        if isinstance(event, yaml.DocumentStartEvent):
            sizes.clear()  # anchors belong to their document
        elif isinstance(event, yaml.ScalarEvent):
            if event.anchor is not None:
                sizes[event.anchor] = 1
            counted(1)
        elif isinstance(event, yaml.CollectionStartEvent):
            open_sizes.append(1)
            open_anchors.append(event.anchor)
            if event.anchor is not None:
                sizes[event.anchor] = None
        elif isinstance(event, yaml.CollectionEndEvent):
            size, anchor = open_sizes.pop(), open_anchors.pop()
            if anchor is not None:
                sizes[anchor] = size
            counted(size)
        elif isinstance(event, yaml.AliasEvent) and event.anchor in sizes:  # an undefined one: libyaml says so
            size, name = sizes[event.anchor], _name(event.anchor)
            if size is None:
                raise AliasError(None, None, f"the alias *{name} is inside the value &{name} it names, which would "
                                 "make that value endless", event.start_mark)
            repeated += size
            if repeated > MAX_REPEATED_VALUES:
                raise AliasError(None, None, f"the aliases up to *{name} repeat more than {MAX_REPEATED_VALUES:,} "
                                 "values, more than one document may (a YAML bomb?)", event.start_mark)
            counted(size)
        yield event


def _name(anchor: str, limit: int = 40) -> str:
    """An anchor's name as a message quotes it: one short line whatever the input."""
    return anchor if len(anchor) <= limit else anchor[:limit - 1] + "…"


def _parsed(text: str, get: Callable[[Loader], Any]) -> Any:
    """What ``get`` takes from a loader of ``text``, once its aliases are checked; the loader is always disposed."""
    check_aliases(text)
    loader = Loader(text)
    try:
        return get(loader)
    finally:
        loader.dispose()


def load(text: str) -> Any:
    """The value of a YAML document (None for an empty one), safely; see the module's promises."""
    return _parsed(text, Loader.get_single_data)


class _EventLoader(_UniqueKeys, yaml.composer.Composer, yaml.constructor.SafeConstructor, yaml.resolver.Resolver):
    """The safe loader's composer and constructor fed from a list of parsing events instead of a parser."""

    def __init__(self, events: list[yaml.Event]) -> None:
        self.events = events
        self.at = 0
        yaml.composer.Composer.__init__(self)
        yaml.constructor.SafeConstructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)

    def check_event(self, *choices) -> bool:
        return self.at < len(self.events) and (not choices or isinstance(self.events[self.at], choices))

    def peek_event(self) -> yaml.Event:
        return self.events[self.at]

    def get_event(self) -> yaml.Event:
        self.at += 1
        return self.events[self.at - 1]


for _loader in (Loader, _EventLoader):  # both read a whole number through _UniqueKeys.construct_yaml_int
    _loader.add_constructor("tag:yaml.org,2002:int", _loader.construct_yaml_int)


def load_head(text: str, key: str, most: int) -> Any:
    """``load``, except that the list under ``key`` of a top-level mapping keeps only its first ``most`` items and
    reading stops where the next one begins: a reader that refuses a longer list (a game's scoring moments) need
    neither parse nor build the rest of the file. The keys written after a list cut short are not read."""
    kept: list[yaml.Event] = []
    open_collections: list[list] = []  # each open list or mapping: [its end event, values begun in it, is the list]
    for event in _checked_events(text):
        if isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent, yaml.CollectionStartEvent)) and open_collections:
            parent = open_collections[-1]
            if parent[2] and parent[1] == most:  # the first item past the cut: close what is open and stop
                kept.extend(end() for end, _, _ in reversed(open_collections))
                kept.extend((yaml.DocumentEndEvent(), yaml.StreamEndEvent()))
                break
            parent[1] += 1
        if isinstance(event, yaml.CollectionStartEvent):
            top = open_collections[0] if len(open_collections) == 1 else None
            is_cut = (top is not None and top[0] is yaml.MappingEndEvent and isinstance(event, yaml.SequenceStartEvent)
                      and top[1] % 2 == 0 and isinstance(kept[-1], yaml.ScalarEvent) and kept[-1].value == key)
            end = yaml.MappingEndEvent if isinstance(event, yaml.MappingStartEvent) else yaml.SequenceEndEvent
            open_collections.append([end, 0, is_cut])
        elif isinstance(event, yaml.CollectionEndEvent):
            open_collections.pop()
        kept.append(event)
    loader = _EventLoader(kept)
    return loader.get_single_data()


def compose(text: str) -> yaml.Node | None:
    """The node tree of a YAML document, for the line of a value (aliases checked as ``load`` does)."""
    return _parsed(text, Loader.get_single_node)


def read(path: str | Path) -> Any:
    """``load`` a UTF-8 file (OSError, UnicodeDecodeError and yaml.YAMLError pass to the caller, who names it)."""
    return load(Path(path).read_text(encoding="utf-8"))


def place(error: yaml.YAMLError) -> str:
    """" line N, column M" of a YAML error, or "" when it has no place."""
    mark = getattr(error, "problem_mark", None)
    return f" line {mark.line + 1}, column {mark.column + 1}" if mark else ""


def problem(error: yaml.YAMLError) -> str:
    """What is wrong, without the context lines PyYAML adds."""
    return str(getattr(error, "problem", None) or error)
