"""The glossary of a ruleset, built from its rule text, and the keyword links and hover definitions in that text.

Nothing here is written by hand but two short lists of exclusions (EXCLUDED, NOT_KEYWORDS). The terms are what
the book itself names:

- bracketed weapon abilities (a section titled ``[LETHAL HITS]`` defines ``[LETHAL HITS]``; ``[SUSTAINED HITS 1]``
  and ``[ANTI-VEHICLE 4+]`` are uses of ``[SUSTAINED HITS]`` and ``[ANTI]``);
- keywords: an ALL-CAPS word the text uses as a keyword ("TRANSPORT models", "the FRAME keyword",
  "MONSTER/VEHICLE units") where a title names it ("TRANSPORTS", "FRAME", "MONSTERS AND VEHICLES",
  "FLYING MODELS"); a keyword no title names (INFANTRY) is not defined by these rules;
- the titles of sections and chapters that name a thing ("Battle-shock", "Level of Control", "Feel No Pain",
  "Shooting phase"): a title "A AND B" is two terms when both are phrases ("Active Player and Opposing
  Player"), and a one-word title stands for the phrase its section's first sentence defines ("ENGAGEMENT":
  "A model's engagement range is ..."). Steps ("Start of ..."), questions and long descriptions are not terms.

How a term is found in running text follows how the book writes it, so ordinary words do not become links:
bracketed names and keywords as printed (case matters), phrases of two or more words in any case (with the
plural or "-ed" of their last word), a one-word title only as a name (capitalised inside a sentence: "the Stealth
ability", "Benefit of Cover, Hidden, Obscuring or Solid"), and any term the book sets in bold on its own
("**stratagems**"). A term links to its defining page at its first use in each paragraph, list item or table,
titled with its definition (Material shows the title as a tooltip); not on its own page or the pages of the
chapter that defines it, not inside another link or a subheading, and not where the text cites that page
right after it ("Making Attacks (04)").

Each term's definition is quoted from its defining text: the first sentence there that uses the term (the one
after it when that sentence only gives the form, "This ability always takes the form Feel No Pain X+."), else
the first whole sentence of the text.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any

from rules40k.sentences import sentences as split_sentences

#: Titles that are not terms although they pass the rules above, with the reason (shown on the glossary page of
#: a ruleset that has them). Keys are lower case.
EXCLUDED = {
    "units and models": "an ordinary phrase of every other sentence, not a name (01.02 defines 'friendly' and 'enemy')",
    "set up": "an everyday verb in nearly every paragraph; 03.02 describes setting up, the phrase is not a name",
    "move": "the quick reference's step heading; 'Normal Move' and 'Charge move' are not uses of it",
    "contents": "the mission pack's table of contents, not a rule",
    "introduction": "the mission pack's welcome, not a rule",
    "deployment": "the Aircraft chapter's subheading; 'Tactical Deployment' and 'Deployment Map' are other things",
    "movement": "the Aircraft chapter's subheading; capitalised it is part of 'Movement phase'",
    "shooting": "the Aircraft chapter's subheading; capitalised it is part of 'Shooting phase'",
    "other rules": "half of 02.06's title 'Unit Composition and Other Rules', and an ordinary phrase",
    "abilities": "a datasheet part and a chapter heading, capitalised only in other names (Core Abilities)",
}

#: ALL-CAPS words used like keywords that no title defines, although one names them.
NOT_KEYWORDS = {
    "EXPLOSIVES": "the keyword of the units the Explosives stratagem (15.05) can target; it does not define it",
}

KIND_LABELS = {"ability": "weapon ability", "keyword": "keyword", "term": "rule term"}

_FORM = re.compile(r"takes the form", re.IGNORECASE)
_KEYWORD_USE = re.compile(r"(?<![\w\[-])([A-Z]{3,}(?:/[A-Z]{3,})*)(?= (?:keywords?|models?|units?|weapons?)\b)")
_CLEAN_PREFIX = re.compile(r"^(?:-\s+|\d+\.\s+|the\s+)", re.IGNORECASE)
_CLEAN_SUFFIX = re.compile(r"(?:,?\s*X\+?|-X|\s*\(\d+CP\))$")
_WORD_PART = re.compile(r"[A-Za-z][A-Za-z']*")
#: Characters after which a capitalised word is inside a sentence (NUL: a link or other protected part).
_INSIDE_SENTENCE = set(",/&(\x00")


@dataclass(frozen=True)
class Term:
    """One glossary entry: its name as shown, how the text writes it, and where the rules define it."""

    name: str
    kind: str  # "ability", "keyword" or "term"
    ref: str  # the defining section or chapter
    pattern: str  # a regular expression for its uses (no capturing groups)
    definition: str = ""
    line: int | None = None
    single_word: bool = False  # a one-word title: found only as a name (see named_here)

    @property
    def key(self) -> str:
        return key_of(self.name)

    @property
    def anchor(self) -> str:
        from rules40k_site.generate import anchor

        return anchor("g-", normal(self.name))


def normal(name: str) -> str:
    """A name in lower case, brackets and hyphens as spaces."""
    return " ".join(re.sub(r"[\[\]\-]", " ", name.lower()).split())


def key_of(name: str) -> str:
    """What identifies a term: its normal name with the last word singular ("Surge Moves" is "Surge Move")."""
    text = normal(name)
    if text.endswith("ies"):
        return text[:-3] + "y"
    return text[:-1] if text.endswith("s") and not text.endswith("ss") else text


# ---------------------------------------------------------------------------
# Patterns: how each kind of term is written in running text


def ability_pattern(name: str) -> str:
    """``[LETHAL HITS]`` and its parametrised uses, ``[SUSTAINED HITS 2]``, ``[ANTI-VEHICLE 4+]``."""
    return rf"\[{re.escape(name)}(?:[ \-][^\]\n\x00\x01]*)?\]"


def phrase_pattern(words: list[str]) -> str:
    """Two or more words in any case, hyphen or space between them, with the plural or "-ed" of the last."""
    *head, last = [w.lower() for w in words]
    if last.endswith("ies"):
        tail = re.escape(last[:-3]) + "(?:y|ies)"
    elif last.endswith("s") and not last.endswith("ss") and len(last) > 3:
        tail = re.escape(last[:-1]) + "(?:s|es)?"
    elif last.endswith("y") and len(last) > 3:
        tail = re.escape(last[:-1]) + "(?:y|ies)"
    else:
        tail = re.escape(last) + "(?:s|es|ed|d)?"
    body = r"[\- ]".join([*map(re.escape, head), tail])
    return rf"(?i:(?<![\w\-]){body}(?![\w\-]))"


def word_pattern(word: str) -> str:
    """A one-word title capitalised, as the book names a rule ("the Solid rule"); the caller checks that it is
    inside a sentence. In capitals the same word is a keyword, found only if the text uses it as one."""
    title = word[:1].upper() + word[1:].lower()
    return rf"(?<![\w\-\[]){re.escape(title)}(?![\w\-])"


def keyword_pattern(word: str) -> str:
    """An ALL-CAPS keyword, alone or in a list ("MONSTER/VEHICLE"), singular or plural."""
    return rf"(?<![\w\-\[]){re.escape(word)}S?(?![\w\-\]])"


# ---------------------------------------------------------------------------
# Collecting the terms of a book


def printed_name(section: dict) -> str | None:
    """The name a section's printed heading gives it, or None when our title describes it instead
    ("Hit roll: equal or beat the BS" under the heading "3. MAKE RANGED ATTACKS")."""
    title = section.get("title") or ""
    heading = section.get("heading") or title

    def clean(text: str) -> str:
        text = _CLEAN_PREFIX.sub("", text.strip())
        text = text.split(": ", 1)[0].rstrip(":").strip()
        return _CLEAN_SUFFIX.sub("", text).strip()

    name = clean(heading)
    return name if name and name.lower() == clean(title).lower() else None


def defined_phrase(word: str, first_sentence: str, chapter_title: str) -> str | None:
    """The phrase a one-word title stands for, when its section's first sentence defines it: "A model's
    engagement range is the area ..." (ENGAGEMENT), or opens with it and a word of the chapter's title: "Dense
    terrain is an obstacle ..." (DENSE, in TERRAIN)."""
    found = re.search(rf"(?i)(?<![\w-]){re.escape(word)}\s+([a-z]+)\s+(?:is|are)\b", first_sentence)
    opening = re.match(rf"(?i){re.escape(word)}\s+([a-z]+)\b", first_sentence)
    if not found and opening and opening.group(1).lower() in chapter_title.lower().split():
        found = opening
    return f"{word} {found.group(1)}".upper() if found else None


def title_names(name: str, first_sentence: str, chapter_title: str = "") -> list[tuple[str, str]]:
    """The terms a title names, each with its kind ("ability" or "term"); none for a step, a question or a
    description."""
    if name.startswith("[") and name.endswith("]"):
        return [(name[1:-1].strip(), "ability")]
    name = re.sub(r"(?i)^the\s+", "", name)  # "THE BATTLE ROUND" is used as "the battle round"
    if re.search(r"[,?:;!()/\"]", name) or re.match(r"(?i)(start|end) of\b|faq\b", name):
        return []
    parts = re.split(r"(?i)\s+and\s+", name)
    if len(parts) == 2 and all(len(p.split()) > 1 or "-" in p for p in parts):
        names = parts  # "ACTIVE PLAYER AND OPPOSING PLAYER", "STARTING STRENGTH AND HALF-STRENGTH"
    else:
        names = [name]
    out = []
    for text in names:
        words = text.split()
        if len(words) > 4 or not _WORD_PART.match(text):
            continue
        if len(words) == 1 and "-" not in text:
            text = defined_phrase(text, first_sentence, chapter_title) or text
        out.append((text, "term"))
    return out


def _pattern_for(name: str, kind: str) -> tuple[str, bool]:
    if kind == "ability":
        return ability_pattern(name), False
    if kind == "keyword":
        return keyword_pattern(name), False
    words = re.split(r"[\s\-]+", name)
    if len(words) > 1:
        return phrase_pattern(words), False
    return word_pattern(name), True


def sentences(text: str, items: bool = True) -> list[str]:
    """The sentences of the running text of a rule (its paragraphs and, unless ``items`` is false, its list
    items; not its tables or subheadings); a line that starts in lower case continues the one before (the
    document breaks lines)."""
    from rules40k_site import generate

    lines: list[list[str]] = []  # [kind, text]
    for line in (text or "").split("\n"):
        line = line.strip()
        if not line:
            lines.append(["", ""])  # a paragraph break: nothing continues across it
            continue
        if lines and line[:1].islower() and lines[-1][0] in ("paragraph", "bullet"):
            lines[-1][1] += " " + line
        else:
            kind = generate._line_kind(line)
            lines.append([kind, line[2:].strip() if kind == "bullet" else line])
    lines = [text for kind, text in lines if kind == "paragraph" or (kind == "bullet" and items)]
    return [s for line in lines for s in split_sentences(line)]


def definition(text: str, pattern: str) -> str:
    """The first sentence of ``text`` that uses the term, in any case (or the next one, when that one only gives
    its form: "This ability always takes the form Feel No Pain X+."), else its first whole sentence of three
    words or more (not a label such as "End Game Objective", nor one that introduces a list)."""
    uses = re.compile(pattern, re.IGNORECASE)
    found = sentences(text)
    for index, sentence in enumerate(found):
        if uses.search(sentence):
            if _FORM.search(sentence) and index + 1 < len(found):
                return found[index + 1]
            return sentence
    whole = [s for s in sentences(text, items=False) + found if len(s.split()) >= 3]
    return next((s for s in whole if s.endswith((".", "!", "?"))), whole[0] if whole else found[0] if found else "")


@dataclass
class Glossary:
    """A ruleset's terms, a finder for them, and the rule texts that use each."""

    document: str
    terms: list[Term]
    also: dict[str, list[str]] = field(default_factory=dict)  # key -> other references titled the same
    links: dict[str, set[str]] = field(default_factory=dict)  # page path -> keys of the terms linked there
    excluded: list[tuple[str, str]] = field(default_factory=list)  # (name, reason) of the titles left out here
    chapter_pages: dict[str, str] = field(default_factory=dict)  # a section's page -> its chapter's page
    _regex: Any = None
    _keys: dict[str, Term] = field(default_factory=dict)
    _used: dict[str, list[str]] | None = None

    def __post_init__(self) -> None:
        order = sorted(range(len(self.terms)), key=lambda i: (-len(self.terms[i].name), self.terms[i].key))
        alternatives = "|".join(f"(?P<t{i}>{self.terms[i].pattern})" for i in order)
        # every use starts a word: the guard spares trying each term at every character
        self._regex = re.compile(rf"(?<![\w\-])(?=[\[A-Za-z])(?:{alternatives})") if self.terms else None
        self._keys = {t.key: t for t in self.terms}
        self._found: dict = {}  # text and bold spans -> the uses in it: usage() and the pages read the same lines

    def by_key(self) -> dict[str, Term]:
        return self._keys

    def used_in(self, book) -> dict[str, list[str]]:
        """For each term key, the sections and chapters whose rule text links it (computed once)."""
        if self._used is None:
            self._used = usage(book, self)
        return self._used

    def find(self, text: str, bold: tuple[tuple[int, int], ...] = ()) -> list[tuple[int, int, Term]]:
        """Every use of a term in ``text``, longest name first where uses overlap; and every bold run (``bold``:
        spans of ``text``) that is a term's name in any case, as the book sets its terms in bold
        ("**stratagems**", "**coherency**")."""
        if self._regex is None:
            return []
        if (text, bold) not in self._found:
            self._found[(text, bold)] = self._find(text, bold)
        return list(self._found[(text, bold)])

    def _find(self, text: str, bold: tuple[tuple[int, int], ...]) -> list[tuple[int, int, Term]]:
        out = [(m.start(), m.end(), self.terms[int(m.lastgroup[1:])]) for m in self._regex.finditer(text)]
        out = [(start, end, term) for start, end, term in out if named_here(text, start, end, term)]
        keys = self.by_key()
        for start, end in bold:
            term = keys.get(key_of(text[start:end].strip()))
            if term is not None and term.kind != "ability" and not any(s < end and start < e for s, e, _ in out):
                out.append((start, end, term))
        return sorted(out, key=lambda found: found[0])


def named_here(text: str, start: int, end: int, term: Term) -> bool:
    """Whether a match is a use of the term, not part of another name or a word that starts a sentence:

    - a keyword is not beside another word in capitals ("DEDICATED TRANSPORT", "MELEE WEAPONS");
    - a one-word title is not beside another capitalised word ("Declare Charge", "Gather Attack Dice") and is
      inside a sentence ("the Stealth ability", not "Stealth can ...");
    - a capitalised phrase is not followed by another capitalised word ("Resolve Attack Dice")."""
    before = re.search(r"(\S+) +$", text[:start])
    after = re.match(r" +(\S+)", text[end:])
    previous = before.group(1).lstrip("'\"‘“(") if before else ""  # the word before, if nothing ends it
    previous = previous if previous[-1:].isalnum() else ""
    following = after.group(1) if after else ""
    capital_before, capital_after = previous[:1].isupper(), following[:1].isupper()
    word = text[start:end]
    if word.isupper() and term.kind == "keyword":
        return not previous.isupper() and not re.match(r"[A-Z]+\b", following)
    if term.single_word:
        return not (capital_before or capital_after) and mid_sentence(text, start)
    if term.kind == "term" and word[:1].isupper() and capital_after:
        return False
    return True


def mid_sentence(text: str, start: int) -> bool:
    """Whether a capitalised word at ``start`` is inside a sentence (a name) rather than its first word: after a
    word, a comma, a slash or an opening parenthesis, not after a full stop, a colon, a bullet or nothing."""
    before = text[:start].rstrip(" ")
    return bool(before) and (before[-1].isalnum() or before[-1] in _INSIDE_SENTENCE)


@dataclass(frozen=True)
class Source:
    """A titled text that may define terms: a section (by its printed heading) or a chapter."""

    ref: str
    name: str
    text: str
    line: int | None
    chapter_title: str


def titled_texts(book) -> list[Source]:
    """Sections first, then chapters: "Objective Markers" is the section's, not its chapter's of the same name."""
    out = []
    for ref, section in book.sections.items():
        name = printed_name(section)
        if name:
            out.append(Source(ref, name, section.get("text") or "", section.get("line"), section["chapter"]["title"]))
    for chapter in book.chapters:
        out.append(Source(chapter["number"], chapter["title"], chapter.get("intro") or "", None, chapter["title"]))
    return out


def collect(book) -> Glossary:
    """The glossary of a book: its titled terms and keywords; where two titles name the same term, the first."""
    from rules40k_site import generate

    found: dict[str, Term] = {}
    also: dict[str, list[str]] = {}
    excluded: dict[str, str] = {}
    titled = titled_texts(book)
    for source in titled:
        first = next(iter(sentences(source.text)), "")
        for name, kind in title_names(source.name, first, source.chapter_title):
            if normal(name) in EXCLUDED:
                excluded[normal(name)] = EXCLUDED[normal(name)]
                continue
            pattern, mid = _pattern_for(name, kind)
            shown = f"[{name}]" if kind == "ability" else generate.readable_title(name.upper())
            term = Term(shown, kind, source.ref, pattern, definition(source.text, pattern), source.line, mid)
            if term.key not in found:
                found[term.key] = term
            elif found[term.key].ref != source.ref:
                also.setdefault(term.key, []).append(source.ref)

    for word in keywords_used(book):
        source = keyword_source(word, titled)
        if word in NOT_KEYWORDS:
            excluded[word] = NOT_KEYWORDS[word]
        if source is None or word in NOT_KEYWORDS:
            continue
        # a title that is the keyword itself ("AIRCRAFT", "TRANSPORTS") becomes the keyword's entry
        key = key_of(word)
        if key in found and found[key].ref != source.ref:
            continue  # another section's term
        pattern = "|".join([keyword_pattern(word), *([found[key].pattern] if key in found else [])])
        single = key in found
        found.pop(key, None)
        found[key] = Term(word, "keyword", source.ref, pattern, definition(source.text, pattern), source.line,
                          single)

    terms = sorted(found.values(), key=lambda t: (t.key, t.ref))
    chapter_pages = {book.page_path(ref): book.page_path(s["chapter"]["number"]) for ref, s in book.sections.items()}
    return Glossary(book.document, terms, dict(sorted(also.items())), excluded=sorted(excluded.items()),
                    chapter_pages=chapter_pages)


def keywords_used(book) -> list[str]:
    """ALL-CAPS words the rule text uses as keywords: "TRANSPORT models", "the FRAME keyword", "MONSTER/VEHICLE"."""
    words: set[str] = set()
    for text in rule_texts(book).values():
        for match in _KEYWORD_USE.finditer(text):
            words.update(match.group(1).split("/"))
    return sorted(words)


def keyword_source(word: str, titled: list[Source]) -> Source | None:
    """The section or chapter whose title names a keyword: a title of at most three words that starts with the
    keyword or its plural or "-ing" form ("TRANSPORTS", "FLYING MODELS"), or has it after "AND" following one word
    ("MONSTERS AND VEHICLES"); the shortest such title, first in the book."""
    forms = {word, word + "S", word + "ES", word + "ING"}
    best = None
    for source in titled:
        words = source.name.upper().split()
        if len(words) > 3 or not words:
            continue
        if words[0] in forms or (len(words) == 3 and words[1] == "AND" and words[2] in forms):
            if best is None or len(source.name) < len(best.name):
                best = source
    return best


def printed_texts(book) -> dict[str, list[str]]:
    """What each section and chapter page prints as rule text, in order, by reference: a section's text, what is
    printed beside it and its other printings; a chapter's introduction and notes. One list for the glossary's
    definitions and its "used in" links, so the two read the same texts."""
    texts: dict[str, list[str]] = {}
    for ref, section in book.sections.items():
        texts[ref] = [section.get("text") or "", *(note.get("text") or "" for note in section.get("notes") or []),
                      *(p.get("text") or "" for p in section.get("other_printings") or [])]
    for chapter in book.chapters:
        texts[chapter["number"]] = [chapter.get("intro") or "",
                                    *(note.get("text") or "" for note in chapter.get("notes") or [])]
    return texts


def rule_texts(book) -> dict[str, str]:
    """The rule text of every section (with what is printed beside it) and chapter introduction, by reference."""
    return {ref: "\n\n".join(parts) for ref, parts in printed_texts(book).items()}


def usage(book, glossary: Glossary) -> dict[str, list[str]]:
    """For each term, the sections and chapters whose rule text links it: their texts rendered as their pages
    render them (a section's first text with its restorations)."""
    from rules40k_site import generate

    glossary.links = {}
    for ref, parts in printed_texts(book).items():
        page = generate.Page(book, book.page_path(ref), f"{'section' if ref in book.sections else 'chapter'} {ref}")
        restorations = [r for r in book.restorations if r["ref"] == ref and not r.get("heading")]
        for index, text in enumerate(parts):
            page.text(text, restorations if index == 0 and ref in book.sections else [])
    refs = {book.page_path(ref): ref for ref in [*book.sections, *(c["number"] for c in book.chapters)]}
    used: dict[str, set[str]] = {}
    for path, keys in glossary.links.items():
        for key in keys:
            used.setdefault(key, set()).add(refs[path])
    return {key: book.sort_refs(found) for key, found in sorted(used.items())}


def own_page(book, term: Term, path: str | None) -> bool:
    """A term is not linked on its own page, nor on the sections of the chapter that defines it (every line of
    the Aircraft chapter names AIRCRAFT)."""
    target = book.page_path(term.ref)
    return path == target or glossary_of(book).chapter_pages.get(path) == target


_CACHE: dict[int, tuple[Any, Glossary]] = {}


def glossary_of(book) -> Glossary:
    """The book's glossary, collected once per Book object (a build makes each Book once)."""
    cached = _CACHE.get(id(book))
    if cached is None or cached[0] is not book:
        if len(_CACHE) > 32:
            _CACHE.clear()
        cached = (book, collect(book))
        _CACHE[id(book)] = cached
    return cached[1]


# ---------------------------------------------------------------------------
# Linking: terms in rendered rule text become links with the definition as their title (a tooltip)

#: What is left alone in a rendered block: footnote references, links already made, Markdown bold (subheadings and
#: heading rows), code spans; raw HTML tags are skipped, but the text between them is read (the book's bold, as
#: ``<strong>``, marks its terms: "<strong>wound roll</strong>").
_PROTECTED = re.compile(
    r"(?<!\\)\[\^[^\]\n]*\]"
    r"|(?<!\\)!?\[(?:\\.|[^\]\\\n])*\]\((?:[^)\"\n]|\"[^\"\n]*\")*\)"
    r"|`+[^`\n]*`+"
    r"|(?<!\\)\*\*.*?(?<!\\)\*\*"
)
_TAG = re.compile(r"<[^>\n]*>")
_TABLE_RULE = re.compile(r"^\|(?:\s*:?-*:?\s*\|)+\s*$")
_ENTITIES = {"&amp;": "&", "&lt;": "<"}
TOOLTIP_LENGTH = 150  # characters of the definition in a link's title: it is repeated on every link


def tooltip(term: Term, label: str) -> str:
    """The title of a term's links: where it is defined and the start of its definition."""
    text = " ".join(term.definition.split())
    if len(text) > TOOLTIP_LENGTH:
        text = text[:TOOLTIP_LENGTH].rsplit(" ", 1)[0].rstrip(",;:") + " …"
    return f"{label}: {text}" if text else label


def _title_attribute(text: str) -> str:
    """Text for a Markdown link title: no quote, backslash or table pipe survives as itself."""
    return html.escape(text, quote=False).replace('"', "&quot;").replace("\\", "\\\\").replace("|", "&#124;")


@dataclass
class Plain:
    """A rendered line as the text a reader sees: ``text``, each character's span in the Markdown (``spans``),
    where HTML tags sit between characters (``tags``: position, tag) and the bold runs (``bold``)."""

    text: str
    spans: list[tuple[int, int]]
    tags: list[tuple[int, str]]
    markdown: str = ""

    @property
    def bold(self) -> tuple[tuple[int, int], ...]:
        runs, opened = [], None
        for position, tag in self.tags:
            if tag == "<strong>":
                opened = position
            elif tag == "</strong>" and opened is not None:
                runs.append((opened, position))
                opened = None
        return tuple(runs)

    def crosses_tag(self, start: int, end: int) -> bool:
        return any(start < position < end for position, _ in self.tags)


def plain(markdown: str) -> Plain:
    """Read a rendered line: escapes and entities as the characters they stand for, a protected part as one NUL
    (never part of a term, and counted as a word before a capitalised one), a table's cell bar as \\x01 (a
    boundary), an HTML tag as nothing (its place kept in ``tags``)."""
    chars: list[str] = []
    spans: list[tuple[int, int]] = []
    tags: list[tuple[int, str]] = []
    skipped = sorted([(m.start(), m.end(), "") for m in _PROTECTED.finditer(markdown)]
                     + [(m.start(), m.end(), m.group(0)) for m in _TAG.finditer(markdown)])
    position = 0
    for start, end, tag in [*skipped, (len(markdown), len(markdown), "")]:
        if start < position:
            continue  # a tag inside a protected part
        i = position
        while i < start:
            c = markdown[i]
            if c == "\\" and i + 1 < start and not markdown[i + 1].isalnum() and markdown[i + 1].isascii():
                size, c = 2, markdown[i + 1]
            elif c == "&" and (entity := next((e for e in _ENTITIES if markdown.startswith(e, i, start)), None)):
                size, c = len(entity), _ENTITIES[entity]
            else:
                size, c = 1, "\x01" if c == "|" else c
            chars.append(c)
            spans.append((i, i + size))
            i += size
        if tag:
            tags.append((len(chars), tag))
        elif start < end:
            chars.append("\x00")
            spans.append((start, end))
        position = max(position, end)
    return Plain("".join(chars), spans, tags, markdown)


def link_terms(page, markdown: str) -> str:
    """Rendered rule text with the first use of each glossary term in every paragraph, list item or table linked
    to its defining page, titled with its definition; not on the term's own page, not inside links or headings."""
    book = page.book
    glossary = glossary_of(book)
    if not glossary.terms:
        return markdown
    blocks = []
    for block in markdown.split("\n\n"):
        lines = block.split("\n")
        units = [lines] if lines and lines[0].startswith("|") else [[line] for line in lines]
        out = []
        for unit in units:
            seen: set[str] = set()
            for line in unit:
                out.append(line if _TABLE_RULE.match(line) else _link_line(page, glossary, line, seen))
        blocks.append("\n".join(out))
    return "\n\n".join(blocks)


def _cited_after(page, read: Plain, end: int, term: Term) -> bool:
    """Whether the use is followed by a citation of its own page, "Making Attacks (04)": that link is enough."""
    if read.text[end:end + 4] != " (\x00)":
        return False
    start, stop = read.spans[end + 2]
    href = re.search(r"\]\(([^\s)]*)", read.markdown[start:stop])
    return bool(href) and href.group(1) == page.href(page.book.page_path(term.ref))


def _link_line(page, glossary: Glossary, line: str, seen: set[str]) -> str:
    read = plain(line)
    chosen: list[list] = []  # [start, end, term] in read.text
    previous = None  # (end, ref, linked) of the last use found
    for start, end, term in glossary.find(read.text, read.bold):
        if previous and read.text[previous[0]:start] == "/" and previous[1] == term.ref:
            # "MONSTER/VEHICLE": one link for the list, or none when its first word was left unlinked
            seen.add(term.key)
            if previous[2]:
                chosen[-1][1] = end
            previous = (end, term.ref, previous[2])
            continue
        linked = not (term.key in seen or read.crosses_tag(start, end) or own_page(page.book, term, page.path)
                      or _cited_after(page, read, end, term))
        previous = (end, term.ref, linked)
        if linked:
            seen.add(term.key)
            chosen.append([start, end, term])
    if chosen:
        glossary.links.setdefault(page.path, set()).update(term.key for _, _, term in chosen)
    chosen = [(read.spans[start][0], read.spans[end - 1][1], term) for start, end, term in chosen
              if not read.crosses_tag(start, end)]
    for start, end, term in reversed(chosen):
        target = page.book.page_path(term.ref)
        title = _title_attribute(tooltip(term, page.book.label(term.ref)))
        line = f'{line[:start]}[{line[start:end]}]({page.href(target)} "{title}"){{: .glossary-term }}{line[end:]}'
    return line


# ---------------------------------------------------------------------------
# The glossary page


def short_label(book, ref: str, length: int = 40) -> str:
    """A reference as a "used in" entry: "05.02", a chapter's number, else a title cut to ``length``."""
    from rules import spec
    from rules40k_site import generate

    if spec.SECTION_REF.match(ref) or ref not in book.sections:
        return ref
    title = generate.readable_title(book.sections[ref]["title"])
    return title if len(title) <= length else title[:length].rsplit(" ", 1)[0] + " …"


def glossary_page(book, env) -> tuple[str, str]:
    """The ruleset's glossary and keyword index: every term, alphabetically, with its kind, defining page, quoted
    definition and the pages whose text uses it."""
    from rules40k_site import generate

    page = generate.Page(book, f"{book.prefix}glossary.md", "glossary")
    glossary = glossary_of(book)
    letters: dict[str, list[dict]] = {}
    for term in sorted(glossary.terms, key=lambda t: (t.key, t.ref)):
        letter = term.key[:1].upper() if term.key[:1].isalpha() else "#"
        used = glossary.used_in(book).get(term.key, [])
        letters.setdefault(letter, []).append({
            "name": generate.escape(term.name),
            "anchor": term.anchor,
            "kind": KIND_LABELS[term.kind],
            "link": page.link(term.ref),
            "also": [page.link(ref) for ref in glossary.also.get(term.key, [])],
            "definition": generate.escape(term.definition),
            "line": term.line,
            "used": [page.link(ref, short_label(book, ref)) for ref in used],
        })
    counts = {kind: sum(1 for t in glossary.terms if t.kind == kind) for kind in KIND_LABELS}
    return page.path, env.get_template("glossary.md.j2").render({
        "book": book, "letters": letters, "counts": counts, "total": len(glossary.terms),
        "excluded": glossary.excluded,
    })
