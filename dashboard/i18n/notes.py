"""The statistics layer's notes (English sentences in ``sim.stats`` results) in a language.

``sim.stats`` explains a caveat in a short English note (``RuleComparison.notes``,
``Ratings.note``); the dashboard shows the language's sentence for every note it knows
(one catalogue key each, ``notes.*``) and an unknown note as it is.
"""

from __future__ import annotations

import re

from dashboard.i18n import text

# (the English note, as a pattern; catalogue key); named groups fill the text's fields.
KNOWN = (
    (re.compile(r"no games for: (?P<specs>[^;]+)"), "notes.no_games_for"),
    (re.compile(r"the rule sets were not played by the same bots: differences may be the "
                r"bots'"), "notes.different_bots"),
    (re.compile(r"fewer than two bots"), "notes.fewer_than_two"),
    (re.compile(r"the bots form (?P<groups>\d+) groups that never met; ratings compare only "
                r"within a group"), "notes.groups"),
    (re.compile(r"some bots won or lost every game: the fit adds (?P<draws>\S+) virtual draws "
                r"per pairing"), "notes.prior"),
    (re.compile(r"the fit did not converge"), "notes.not_converged"),
)  # fmt: skip
SEPARATOR = "; "


def translate_note(lang: str, note: str) -> str:
    """One note, or several joined by ``"; "`` (as ``Ratings.note``), in ``lang``."""
    out = []
    rest = note.strip()
    while rest:
        for pattern, key in KNOWN:
            m = pattern.match(rest)
            if m:
                out.append(text(lang, key, **m.groupdict()))
                rest = rest[m.end() :]
                break
        else:
            part, _, rest = rest.partition(SEPARATOR)
            out.append(part)
            continue
        rest = rest.removeprefix(SEPARATOR).strip()
    return text(lang, "notes.separator").join(out)
