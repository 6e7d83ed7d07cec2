"""Every option of a rule set, declared once: name, kind and values, the value each preset
gives it, the clause of ``docs/rules.md`` it changes, what each value means, and its slot
in the int32 array the compiled kernels read.

Everything else derives from this table: the fields' checks and the spec parser
(:mod:`engine.rules`), the presets, the canonical spec (options in this order), the
kernels' array (``R_*`` below), the tables' rule set (:mod:`sim.tablebase.store`),
``dsq rules`` and its words (:mod:`engine.options`), the dashboard's rules builder and the
options table of ``docs/rules.md`` (:func:`engine.options.markdown_table`; a test keeps
the page equal to it). Adding an option is one entry here, its field in
:class:`engine.rules.Ruleset` (a test checks they agree), and the kernel line that reads
its slot, labelled with its clause.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.codes import JUMP_BLOCK_VALUES, JUMP_VALUES, Jump, JumpBlock

PRESET_NAMES = ("standard", "yeshou", "datou")
MAX_NO_CAPTURE_PLIES = 1_000_000
MAX_TIME_S = 86_400  # one day: the longest time limit a rule set may give (seconds)
MAX_TIME_STRIKES = 100
MAX_VOID_ROUNDS = 1000


@dataclass(frozen=True)
class Option:
    """One option of a rule set.

    ``kind`` is ``bool``, ``str`` (one of ``choices``, stored in the kernels' array as
    ``codes[value]``) or ``int`` (``low`` to ``high``); ``presets`` gives each preset's
    value; ``meanings`` what each value means (for an ``int`` option, ``"0"`` and ``"N"``,
    where ``{n}`` stands for the number; ``low_means`` says what ``low`` means, in a few
    words, for the error message); ``table_value`` is the value endgame tables fix
    it at when it is about a game's history rather than its position (None: tables follow
    it); ``kernel`` is False for an option the compiled kernels never read (how a finished
    game scores): it has no slot in their array."""

    name: str
    kind: type
    presets: dict[str, object]
    clause: str
    about: str
    meanings: dict[str, str]
    choices: tuple[str, ...] = ()
    codes: dict[str, int] = field(default_factory=dict)
    low: int = 0
    high: int = 0
    low_means: str = ""
    table_value: object = None
    kernel: bool = True

    @property
    def values(self) -> tuple[str, ...]:
        """The values a spec may give it (none listed for an ``int`` option)."""
        if self.kind is bool:
            return ("false", "true")
        return self.choices

    @property
    def default(self) -> object:
        """The value of the ``standard`` preset (the field's default)."""
        return self.presets["standard"]

    def text(self, value: object) -> str:
        """``value`` as a spec writes it (``true``, ``horizontal``, ``200``)."""
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    def meaning(self, value: object) -> str:
        """What ``value`` of this option means."""
        if self.kind is int:
            return self.meanings["0" if value == 0 else "N"].format(n=value)
        return self.meanings[self.text(value)]

    def code(self, value: object) -> int:
        """The number the kernels read for ``value``."""
        if self.kind is str:
            return self.codes[str(value)]
        return int(value)  # type: ignore[call-overload]


def _presets(standard: object, yeshou: object, datou: object) -> dict[str, object]:
    return dict(zip(PRESET_NAMES, (standard, yeshou, datou), strict=True))


JUMP_MEANINGS = {
    "both": "the {a} jumps across the rivers and along them",
    "horizontal": "the {a} jumps only across the rivers (along a rank)",
    "none": "the {a} never jumps",
}


def _jump(animal: str, presets: dict[str, object]) -> Option:
    return Option(
        f"{animal}_jump",
        str,
        presets,
        "Movement 9",
        f"the {animal}'s river jumps",
        {v: m.format(a=animal) for v, m in JUMP_MEANINGS.items()},
        choices=JUMP_VALUES,
        codes={j.label: int(j) for j in Jump},
    )


OPTIONS: tuple[Option, ...] = (
    Option(
        "dog_over_wolf", bool, _presets(False, False, False), "Pieces",
        "which of dog and wolf is stronger",
        {"false": "the wolf (4) is stronger than the dog (3)",
         "true": "the dog (4) is stronger than the wolf (3)"},
    ),
    Option(
        "jump_block", str, _presets("any", "enemy", "any"), "Movement 7",
        "which rats in the river block a lion's or tiger's jump",
        {"any": "any rat on the jump's path blocks it, even the jumper's own",
         "enemy": "only an enemy rat blocks a jump; the jumper's own rat does not"},
        choices=JUMP_BLOCK_VALUES,
        codes={b.label: int(b) for b in JumpBlock},
    ),
    _jump("lion", _presets("both", "both", "both")),
    _jump("tiger", _presets("both", "both", "horizontal")),
    Option(
        "rat_cross_capture", bool, _presets(False, True, False), "Captures 1",
        "whether a rat may capture a rat across the water's edge",
        {"false": "a rat in water and a rat on land cannot capture each other",
         "true": "a rat in water and a rat on land may capture each other"},
    ),
    Option(
        "elephant_captures_rat", bool, _presets(False, False, False), "Captures 4",
        "whether an elephant may capture a rat",
        {"false": "an elephant may not capture a rat (except in a trap)",
         "true": "an elephant may capture a rat on land"},
    ),
    Option(
        "trapped_can_capture", bool, _presets(False, False, False), "Captures 2",
        "whether an animal in an enemy trap may capture",
        {"false": "an animal in an enemy trap has strength 0 and cannot capture",
         "true": "an animal in an enemy trap keeps its strength and may capture"},
    ),
    Option(
        "rule_7_3", bool, _presets(False, True, False), "7-3 rule",
        "the 7-3 anti-chasing rule",
        {"false": "no 7-3 rule",
         "true": "an animal may not visit the same square a 4th time within its "
                 "side's last 7 moves (unless chased, or a move entered a trap)"},
        table_value=False,
    ),
    Option(
        "rule_17_5", bool, _presets(False, True, True), "17-5 rule",
        "the 17-5 anti-chasing rule",
        {"false": "no 17-5 rule",
         "true": "after 17 moves in a row of one animal within at most 5 squares, it "
                 "may not return to them (unless a move entered a trap)"},
        table_value=False,
    ),
    Option(
        "no_capture_plies", int, _presets(200, 200, 200), "End 3",
        "the draw for lack of captures",
        {"0": "no draw for lack of captures",
         "N": "drawn after {n} plies in a row without a capture"},
        low=0, high=MAX_NO_CAPTURE_PLIES, low_means="no draw rule", table_value=0,
    ),
    # The players' rules (Clocks 1-3): the engine's kernels never read them; the referee,
    # the Play page and engine.timerules do. Tables fix them at their standard values.
    Option(
        "move_time", int, _presets(0, 0, 30), "Clocks 1",
        "the time limit of one move, in seconds",
        {"0": "no time limit per move",
         "N": "a move may take {n} s; each further {n} s it takes is one more strike"},
        low=0, high=MAX_TIME_S, low_means="no limit", table_value=0, kernel=False,
    ),
    Option(
        "time_strikes", int, _presets(1, 1, 2), "Clocks 1",
        "how many strikes in a row over the time per move lose",
        {"N": "{n} strikes in a row over the time per move lose the game on time"},
        low=1, high=MAX_TIME_STRIKES, low_means="the first strike loses", table_value=1,
        kernel=False,
    ),
    Option(
        "game_time", int, _presets(0, 600, 0), "Clocks 2",
        "each side's time for the whole game, in seconds",
        {"0": "no clock for the whole game",
         "N": "each side has {n} s for all its moves; the side whose time runs out loses"},
        low=0, high=MAX_TIME_S, low_means="no clock", table_value=0, kernel=False,
    ),
    Option(
        "draw_by_agreement", bool, _presets(False, True, False), "Clocks 3",
        "whether the players may agree to a draw",
        {"false": "no draw by agreement",
         "true": "a player may offer a draw; the game is drawn if the other accepts"},
        table_value=False, kernel=False,
    ),
    Option(
        "void_rounds", int, _presets(0, 10, 0), "Scoring 1",
        "the games that score nothing for being short",
        {"0": "every finished game scores",
         "N": "a game whose last move is in round {n} or earlier (a round: two plies, "
              "counted from the game's first ply) scores nothing for either side"},
        low=0, high=MAX_VOID_ROUNDS, low_means="every game scores", table_value=0,
        kernel=False,
    ),
)  # fmt: skip

OPTION_BY_NAME: dict[str, Option] = {o.name: o for o in OPTIONS}
OPTION_NAMES: tuple[str, ...] = tuple(OPTION_BY_NAME)
KERNEL_OPTIONS: tuple[Option, ...] = tuple(o for o in OPTIONS if o.kernel)


def slot(name: str) -> int:
    """The index of option ``name`` in the kernels' array (its place among the options the
    kernels read, :data:`KERNEL_OPTIONS`); ValueError for an option they do not read."""
    return [o.name for o in KERNEL_OPTIONS].index(name)


# The kernels' array (``Ruleset.as_array``): one slot per option the kernels read, in
# declaration order, then the strength of each animal (``R_STRENGTH + animal``, animal 1..8).
R_DOG_OVER_WOLF = slot("dog_over_wolf")
R_JUMP_BLOCK = slot("jump_block")  # a JumpBlock code: BLOCK_ANY (any rat blocks) or BLOCK_ENEMY
R_LION_JUMP = slot("lion_jump")  # a Jump code: JUMP_NONE, JUMP_HORIZONTAL or JUMP_BOTH
R_TIGER_JUMP = slot("tiger_jump")
R_RAT_CROSS = slot("rat_cross_capture")
R_ELEPHANT_RAT = slot("elephant_captures_rat")
R_TRAPPED_CAPTURE = slot("trapped_can_capture")
R_RULE_7_3 = slot("rule_7_3")
R_RULE_17_5 = slot("rule_17_5")
R_NO_CAPTURE = slot("no_capture_plies")
R_STRENGTH = len(KERNEL_OPTIONS)  # R_STRENGTH + animal (1..8): strength of that animal
RULES_ARRAY_SIZE = R_STRENGTH + 9
