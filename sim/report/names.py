"""How animals are named on screen: per language, and with the wolf shown as a fox.

Some editions call the wolf a fox (狐). That is a matter of display only: the rules, FENs
and recorded games keep the wolf and its letter ``W``; whatever draws a board or writes a
piece for people (the dashboard, and the CLI if it wants) asks this module for the name
and the letter to show. Pure functions over the engine's vocabulary (``engine.codes``).

Languages: ``en`` (English), ``zh`` (简体中文, the Chinese page's one-character names) and
``pt`` (Português, the Portuguese page's names).
"""

from __future__ import annotations

from engine.codes import ANIMAL_LETTERS as LETTERS
from engine.codes import ANIMAL_NAMES as ANIMALS

FOX_LETTER = "F"
LANGUAGES = ("en", "zh", "pt")

NAMES: dict[str, dict[str, str]] = {
    "en": {
        "rat": "Rat", "cat": "Cat", "dog": "Dog", "wolf": "Wolf", "leopard": "Leopard",
        "tiger": "Tiger", "lion": "Lion", "elephant": "Elephant", "fox": "Fox",
    },
    "zh": {
        "rat": "鼠", "cat": "猫", "dog": "狗", "wolf": "狼", "leopard": "豹",
        "tiger": "虎", "lion": "狮", "elephant": "象", "fox": "狐",
    },
    "pt": {
        "rat": "Rato", "cat": "Gato", "dog": "Cão", "wolf": "Lobo", "leopard": "Leopardo",
        "tiger": "Tigre", "lion": "Leão", "elephant": "Elefante", "fox": "Raposa",
    },
}  # fmt: skip


def animal_label(animal: str | int) -> str:
    """The stored name of an animal given as a name (``"lion"``), a FEN letter of either
    side (``"L"``, ``"l"``) or an engine code (1 rat .. 8 elephant; 9..16 Blue's).

    Raises ValueError for anything else.
    """
    if isinstance(animal, bool):
        raise ValueError(f"not an animal: {animal!r}")
    if isinstance(animal, int):
        if 1 <= animal <= 16:
            return ANIMALS[(animal - 1) % 8]
        raise ValueError(f"not an animal code: {animal!r} (1..16)")
    text = str(animal)
    if text.lower() in ANIMALS:
        return text.lower()
    if len(text) == 1 and text.upper() in LETTERS:
        return ANIMALS[LETTERS.index(text.upper())]
    raise ValueError(f"not an animal: {animal!r}")


def display_key(animal: str | int, fox: bool = False) -> str:
    """The animal's name key for display: its stored name, or ``"fox"`` for the wolf when
    ``fox`` is on."""
    label = animal_label(animal)
    return "fox" if fox and label == "wolf" else label


def animal_name(animal: str | int, lang: str = "en", fox: bool = False) -> str:
    """The animal's display name in ``lang`` (unknown languages fall back to English):
    ``animal_name("elephant", "zh") == "象"``, ``animal_name("wolf", "pt", fox=True) ==
    "Raposa"``."""
    table = NAMES.get(lang, NAMES["en"])
    return table[display_key(animal, fox)]


def animal_letter(animal: str | int, fox: bool = False) -> str:
    """The upper-case letter to show for an animal: its FEN letter, ``F`` for the wolf when
    ``fox`` is on."""
    label = animal_label(animal)
    return FOX_LETTER if fox and label == "wolf" else LETTERS[ANIMALS.index(label)]


def display_letter(fen_letter: str, fox: bool = False) -> str:
    """A FEN piece letter as shown (case kept: upper Red, lower Blue): ``W`` -> ``F`` and
    ``w`` -> ``f`` when ``fox`` is on, every other letter unchanged."""
    shown = animal_letter(fen_letter, fox)
    return shown if fen_letter.isupper() else shown.lower()
