"""Names players choose (display names, club names): visible, and compared as a reader sees them.

- ``visible_text``: a name needs at least one visible character — a letter, digit, punctuation
  mark or symbol that is not default-ignorable (Unicode's ``Default_Ignorable_Code_Point``: zero
  width characters, the soft hyphen, Hangul fillers, variation selectors, tags …) and not the
  Braille blank. Spaces, combining marks and format characters alone make no name.
- ``name_skeleton``: the identity of a club name for uniqueness (R-37) — NFKC (full-width and
  styled look-alikes fold: "ＲＩＶＡＬＳ" is "RIVALS"), default-ignorables removed, upper case,
  the confusables skeleton of Unicode TR39 (Cyrillic "А" is Latin "A"), case folded, the skeleton
  again, whitespace collapsed. The confusables data is Unicode's own ``confusables.txt`` (version 13.0.0, shipped
  as ``rivals/data/confusables-13.0.0.txt.gz``, header and terms of use intact): PyPI has no
  maintained package that computes the TR39 skeleton (``confusable_homoglyphs`` detects mixed
  scripts but keeps the mapping without its direction; PyICU's spoof checker needs ICU headers and
  a C++ build), and the skeleton is a dozen lines over the data.
"""

from __future__ import annotations

import gzip
import unicodedata
from functools import cache
from pathlib import Path

from rivals.errors import Invalid

CONFUSABLES = Path(__file__).parent / "data" / "confusables-13.0.0.txt.gz"

# DerivedCoreProperties.txt, Default_Ignorable_Code_Point (stable since Unicode 6.1)
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
_BLANK_SYMBOLS = frozenset({"\u2800"})  # BRAILLE PATTERN BLANK: a symbol that draws nothing


def default_ignorable(ch: str) -> bool:
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in _DEFAULT_IGNORABLE)


def visible(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LNPS" and ch not in _BLANK_SYMBOLS and not default_ignorable(ch)


def visible_text(value: str, *, field: str) -> str:
    """``value`` if it has a visible character, else 400 ``invalid`` with ``details[field]``."""
    if not any(map(visible, value)):
        message = "must contain a visible character (letters, digits, punctuation or symbols)"
        raise Invalid(f"{field} {message}", details={field: [message]})
    return value


@cache
def _confusables() -> dict[str, str]:
    table: dict[str, str] = {}
    with gzip.open(CONFUSABLES, "rt", encoding="utf-8-sig") as lines:
        for line in lines:
            fields = line.split("#", 1)[0].split(";")
            if len(fields) < 3:
                continue
            source, target = fields[0].strip(), fields[1].strip()
            table[chr(int(source, 16))] = "".join(chr(int(cp, 16)) for cp in target.split())
    return table


def skeleton(text: str) -> str:
    """UTS #39 ``skeleton(X)``: NFD, each character replaced by its prototype, NFD again."""
    table = _confusables()
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text)))


def name_skeleton(name: str) -> str:
    """What two club names must not share to both be open (see the module docstring)."""
    # Look-alikes hide in upper case (Cyrillic "Т" is Latin "T", its lower case "т" is not "t") and
    # prototypes may be upper case ("Ꭰ" → "D"): the skeleton of the upper-cased name, case folded,
    # and its skeleton again — so "Rivals", "RIVALS" and "ＲＩＶＡＬＳ" share one key.
    text = "".join(ch for ch in unicodedata.normalize("NFKC", name) if not default_ignorable(ch))
    upper = unicodedata.normalize("NFKC", text.upper())
    key = skeleton(unicodedata.normalize("NFKC", skeleton(upper).casefold()))
    return " ".join(key.split())


def search_key(text: str) -> str:
    """The form in which player names are searched (R-39: case-insensitive, part of the name):
    NFKC (full-width and styled letters fold: "ＡＮＡ" is "ANA"), default-ignorables removed, case
    folded ("Straße" is "strasse"), whitespace collapsed. Display names are stored with theirs
    (``Account.search_name``) and a query is read the same way, so a substring of one is a
    substring of the other. Not the confusables skeleton: a search for "Player 10" must not find
    "Player lO"."""
    text = "".join(ch for ch in unicodedata.normalize("NFKC", text) if not default_ignorable(ch))
    return " ".join(unicodedata.normalize("NFKC", text.casefold()).split())
