"""What dsq prints can be pasted: every hint carries the flags that make it work, an empty
selection is one error (the same in ``stats``, ``games export``, ``openings build`` and
``tune``) naming the bot under another evaluation it may have meant, a mistyped flag is
refused by its sub-command with the closest flag, and the small wording rules (one seed
range, only the end reasons that occur, plural words, the tournaments' list, the Elo that
rests on few pairs, the board legend of docs/rules.md)."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.procs import in_process

BOT = "alphabeta:depth=2"  # the sample's alpha-beta games are alphabeta:depth=2,eval=classic


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private copy of the bundled sample (the commands that write need one)."""
    dest = tmp_path_factory.mktemp("sample") / "data"
    shutil.copytree(ROOT / "data", dest, ignore=shutil.ignore_patterns(".dashboard", ".lock"))
    return dest


def one_error(argv: list[str], command: str) -> str:
    """Run ``dsq ARGV``: exit 2, one ``dsq COMMAND: error:`` line (``dsq: error:`` for an
    empty ``command``); that line's message."""
    code, _, err = in_process(argv)
    lines = err.strip().splitlines()
    head = " ".join(["dsq", command]).strip() + ": error: "
    assert code == 2 and len(lines) == 1, (code, err)
    assert lines[0].startswith(head), err
    return lines[0][len(head) :]


def pasted(hint: str) -> list[str]:
    """The arguments of a ``dsq ...`` command line found in a message, as the shell reads
    them (the line runs to the end of the message or to a ``)``/``;``)."""
    found = re.search(r"dsq ([^;)]*)", hint)
    assert found, hint
    return shlex.split(found.group(1))


# -- 1. hints that run as printed ---------------------------------------------------------


def test_the_tournament_hints_name_the_data_folder(tmp_path: Path) -> None:
    data = tmp_path / "my data"  # a space: the hint quotes it
    argv = ["tournament", "--format", "round-robin", "--players", "random", "greedy",
            "--games-per-pair", "2", "--tournament-id", "first", "--data", str(data)]  # fmt: skip
    code, out, err = in_process(argv)
    assert code == 0, err
    [hint] = [line for line in err.splitlines() if "dsq tournament --report" in line]
    again = pasted(hint)
    assert again == ["tournament", "--report", "first", "--data", str(data)]
    code, again_out, err = in_process(again)
    assert code == 0 and again_out == out, err
    message = one_error(["tournament", "--report", "nosuch", "--data", str(data)], "tournament")
    assert message.endswith(" shows them)")
    code, listed, _ = in_process(pasted(message.removesuffix(" shows them)")))
    assert code == 0 and listed.splitlines()[1].split()[:2] == ["first", "round-robin"]


def test_a_study_without_games_says_how_to_play_it(tmp_path: Path) -> None:
    message = one_error(
        ["study", "report", "docs/studies/example.toml", "--quick", "--data", str(tmp_path)],
        "study report",
    )
    assert pasted(message) == [
        "study", "run", str(ROOT / "docs/studies/example.toml"), "--quick", "--data", str(tmp_path)
    ] or pasted(message) == [
        "study", "run", "docs/studies/example.toml", "--quick", "--data", str(tmp_path)
    ]  # fmt: skip


def test_the_missing_tables_hint_builds_them_in_the_same_folder(tmp_path: Path) -> None:
    from sim.cli import build_parser

    argv = ["simulate", "--games", "2", "--adjudicate", "tablebase", "--data", str(tmp_path)]
    message = one_error(argv, "simulate")
    words = pasted(message)
    args = build_parser("tablebase").parse_args(words)
    assert words[:2] == ["tablebase", "build"] and args.data == str(tmp_path)
    assert args.rules == "standard" and args.pieces == 3


def test_a_hint_leaves_out_the_folder_dsq_data_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sim.storage.paths import dsq_line

    monkeypatch.setenv("DSQ_DATA", str(tmp_path))
    assert dsq_line("batches", data=tmp_path) == "dsq batches"
    assert dsq_line("batches", data=tmp_path / "x y") == f"dsq batches --data '{tmp_path}/x y'"


def test_a_missing_folder_is_made_by_the_batch_its_error_names(tmp_path: Path) -> None:
    folder = tmp_path / "my data"  # a space: the hint quotes it
    message = one_error(["stats", "--data", str(folder)], "stats")
    words = pasted(message.removesuffix(" creates it)"))
    assert words[0] == "simulate" and words[-2:] == ["--data", str(folder)]
    words[words.index("--games") + 1] = "2"  # the same line, fewer games
    code, _, err = in_process([*words, "--workers", "1"])
    assert code == 0, err
    code, out, err = in_process(["stats", "--data", str(folder)])
    assert code == 0 and out.startswith("2 games in "), err


def test_a_saved_game_names_its_folder_to_replay_it(tmp_path: Path) -> None:
    folder = tmp_path / "my data"
    argv = ["play", "--red", "human", "--blue", "random", "--save", "--quiet"]
    code, out, err = in_process([*argv, "--data", str(folder)], "resign\n")
    assert code == 0, err
    [saved] = [line for line in out.splitlines() if line.startswith("saved as ")]
    words = pasted(saved)
    assert words[:2] == ["replay", "--game"] and words[-2:] == ["--data", str(folder)]
    code, out, err = in_process(words)
    assert code == 0 and '"agrees": true' in out, err


# -- 3 and 4. an empty selection ----------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "extra"),
    [
        (["stats"], []),
        (["games", "export"], []),
        (["openings", "build"], ["--plies", "6", "--between", "--output", "-"]),
        (["tune"], ["--name", "none"]),
    ],
)
def test_an_empty_selection_is_one_error_naming_the_bot_meant(
    command: list[str], extra: list[str], sample: Path
) -> None:
    message = one_error([*command, "--bot", BOT, *extra, "--data", str(sample)], " ".join(command))
    assert message.startswith(f"no games in {sample} match the selection (rules: ")
    assert f"did you mean {BOT},eval=classic?" in message
    assert "bots in this data: alphabeta:depth=2,eval=classic, greedy," in message
    assert message.endswith("rules in this data: datou, standard, yeshou")


@pytest.mark.parametrize("command", [["stats"], ["games", "export"]])
def test_an_empty_selection_lists_the_batches(command: list[str], sample: Path) -> None:
    message = one_error([*command, "--batch", "nosuch", "--data", str(sample)], " ".join(command))
    assert "batches: nosuch" in message and "batches in this data: sample-ab2-1, " in message
    assert "did you mean" not in message


@pytest.mark.parametrize("fmt", ["text", "csv", "jsonl"])
def test_an_empty_export_writes_nothing_but_its_error(fmt: str, sample: Path) -> None:
    """Not even a CSV header: a file redirected from it is empty, as the selection is."""
    argv = ["games", "export", "--format", fmt, "--batch", "nosuch", "--data", str(sample)]
    code, out, err = in_process(argv)
    assert (code, out) == (2, "") and err.startswith("dsq games export: error: no games in ")


# -- 5. a mistyped flag -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "command", "message"),
    [
        (["simulate", "--gmaes", "10"], "simulate",
         "unrecognized arguments: --gmaes 10; did you mean --games?"),
        (["stats", "--bye", "rules"], "stats",
         "unrecognized arguments: --bye rules; did you mean --by?"),
        (["tablebase", "stats", "--material", "R v r", "--rulse", "x"], "tablebase stats",
         "unrecognized arguments: --rulse x; did you mean --rules?"),
        (["stats", "extra"], "stats", "unrecognized arguments: extra"),
        (["stats", "--by", "matchp"], "stats", "argument --by: invalid choice: 'matchp' "
         "(choose from 'rules', 'matchup', 'batch', 'bot'); did you mean matchup?"),
        (["stats", "--by", "zzz"], "stats", "argument --by: invalid choice: 'zzz' "
         "(choose from 'rules', 'matchup', 'batch', 'bot')"),
        (["tablebase", "biuld"], "tablebase", "argument SUBCOMMAND: invalid choice: 'biuld' "
         "(choose from 'build', 'stats', 'probe', 'verify', 'list'); did you mean build?"),
    ],
)  # fmt: skip
def test_a_mistyped_flag_is_refused_by_its_sub_command(
    argv: list[str], command: str, message: str
) -> None:
    assert one_error(argv, command) == f"{message} (see 'dsq {command} --help')"


def test_a_mistyped_command_is_answered_with_the_closest() -> None:
    message = one_error(["simulat", "--games", "3"], "")
    assert message.startswith("argument COMMAND: invalid choice: 'simulat' (choose from ")
    assert message.endswith("; did you mean simulate? (see 'dsq --help')")
    message = one_error(["--gmaes", "10"], "")
    assert message == (
        "unrecognized arguments: --gmaes 10; a command comes first, then its flags "
        "(see 'dsq --help')"
    )


@pytest.mark.parametrize(
    ("argv", "command", "meant"),
    [
        (["stats", "--rules", "datuo"], "stats", "datou"),
        (["rules", "standard+dog_over_wolff"], "rules", "dog_over_wolf"),
        (["bestmove", "--bot", "alphabet"], "bestmove", "alphabeta"),
        (["bestmove", "--bot", "alphabeta:dept=2"], "bestmove", "depth"),
    ],
)
def test_a_mistyped_rules_or_bot_name_is_answered_with_the_closest(
    argv: list[str], command: str, meant: str
) -> None:
    """The line lists every name there is, then the one meant; a name close to none is
    listed without a guess."""
    message = one_error(argv, command)
    assert re.search(rf" are: [\w, ]+; did you mean {meant}\?$", message), message
    assert "did you mean" not in one_error([argv[0], *argv[1:-1], "zzz"], command)


# -- 6. one board legend -------------------------------------------------------------------


def test_the_board_of_the_rules_page_is_the_terminal_board() -> None:
    from engine.position import Position
    from sim.commands.play import render_board

    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    drawn = re.search(r"## Board\n.*?```\n(.*?)```", text, re.S)
    assert drawn
    page = [line.split()[:8] for line in drawn.group(1).splitlines()[1:]]
    terminal = [line.split() for line in render_board(Position("standard")).splitlines()[1:]]
    assert page == terminal
    assert "`@` a den, `#` a trap, `~` water" in text


# -- 7. a tuned evaluation that loses -------------------------------------------------------


def test_tune_says_what_the_best_k_is_and_warns_when_classic_predicts_better(
    sample: Path,
) -> None:
    from sim.commands.tune import worse_than_classic

    argv = ["tune", "--name", "small", "--batch", "sample-ab2-1", "--data", str(sample)]
    code, out, err = in_process(argv)
    assert code == 0, err
    line = out.splitlines()[1]
    pattern = (
        r"held-out loss ([\d.]+) .*the classic evaluation ([\d.]+) at its scale k = 1/400, "
        r"[\d.]+ at k = 1/\d+, the scale that fits the training"
    )
    found = re.search(pattern, line)
    assert found, line
    worse = float(found.group(1)) > float(found.group(2))
    assert ("warning: evaluation small predicts the held-out games worse" in err) == worse
    # Its last line plays it against the classic one: pasted (two games), the batch records
    # the evaluation of this data folder by content.
    hint = out.splitlines()[-1]
    assert hint.startswith("play it against the classic evaluation: dsq simulate ")
    words = pasted(hint)
    assert words[-2:] == ["--data", str(sample)] and "alphabeta:eval=small" in words
    words[words.index("--games") + 1] = "2"
    code, played, err = in_process([*words, "--workers", "1"])
    assert code == 0 and " done  2/2 games" in played, err
    assert re.search(r"alphabeta:eval=small@[0-9a-f]{12} vs alphabeta:eval=classic", played)
    assert "(95%, from 1 colour-swapped pair)" in played  # one pair, in the singular
    summary = {"name": "x", "held_out_loss": 0.65332, "classic_held_out_loss": 0.59902,
               "file": "DATA/evals/x.toml"}  # fmt: skip
    assert worse_than_classic(summary).startswith(
        "evaluation x predicts the held-out games worse than the classic one (held-out loss "
        "0.65332 > 0.59902); it is kept, but eval=classic is likely the better"
    )


def test_tune_accept_plays_its_match_in_the_folder_it_names(sample: Path) -> None:
    """The acceptance match's bots read the new evaluation from the ``--data`` folder, not
    from the default one (there, it is missing: the batch failed with a traceback)."""
    argv = ["tune", "--name", "acc", "--batch", "sample-ab2-1", "--positions", "2000",
            "--max-iter", "20", "--accept", "--accept-games", "2", "--time-ms", "5",
            "--data", str(sample)]  # fmt: skip
    code, out, err = in_process(argv)
    assert code == 0, err
    assert re.search(r"^match: \w+ \(LLR [-\d.]+\) after 2 games ", out, re.M), out
    assert "None" not in out


# -- 8. small things -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["serve", "--bot", "random", "--seed", "-1"],
        ["play", "--red", "random", "--blue", "random", "--seed", "-4"],
        ["bestmove", "--bot", "random", "--seed", "-4"],
        ["simulate", "--games", "1", "--seed", "-1"],
        ["tournament", "--format", "round-robin", "--players", "random", "greedy", "--seed", "-1"],
        ["simulate", "--games", "1", "--seed", str(2**63)],
        ["serve", "--bot", "random", "--seed", str(2**63)],
    ],
)
def test_every_seed_has_one_range(argv: list[str]) -> None:
    message = one_error(argv, argv[0])
    assert "argument --seed: must be between 0 and 9223372036854775807" in message
    from sim.cli import build_parser

    top = [*argv[: argv.index("--seed")], "--seed", str(2**63 - 1)]
    assert build_parser(argv[0]).parse_args(top).seed == 2**63 - 1


def test_stats_shows_the_end_reasons_that_occur(sample: Path) -> None:
    code, out, _ = in_process(["stats", "--data", str(sample)])
    assert code == 0
    table = out[out.index("  end reason") :].splitlines()
    assert [row.split()[0] for row in table[1:-1]] == [
        "den", "capture_all", "no_moves", "no_capture", "ply_cap"
    ]  # fmt: skip
    assert re.fullmatch(r"  \(\d+ other end reasons: none; --details lists them\)", table[-1])
    code, out, _ = in_process(["stats", "--details", "--data", str(sample)])
    assert code == 0 and re.search(r"^  resign +0 ", out, re.M)


def test_a_missing_import_file_is_named_once(tmp_path: Path) -> None:
    message = one_error(
        ["games", "import", "nonexist.txt", "--data", str(tmp_path)], "games import"
    )
    assert message == "nonexist.txt: cannot read: No such file or directory"


def test_the_words_agree_with_their_numbers(tmp_path: Path) -> None:
    argv = ["tournament", "--format", "swiss", "--players", "random", "greedy", "--rounds", "3",
            "--data", str(tmp_path)]  # fmt: skip
    assert "has at most 1 round without rematches" in one_error(argv, "tournament")
    for pieces in ("0", "1", "9"):
        argv = ["tablebase", "build", "--pieces", pieces, "--data", str(tmp_path)]
        assert f"must be between 2 and 4, got '{pieces}'" in one_error(argv, "tablebase build")


def test_the_tables_piece_limit_is_the_builders() -> None:
    from sim.commands.tablebase import MAX_PIECES
    from sim.tablebase.material import MAX_PIECES as BUILT

    assert MAX_PIECES == BUILT


def test_an_elo_on_few_pairs_says_how_few(sample: Path) -> None:
    code, out, _ = in_process(["batches", "--data", str(sample)])
    assert code == 0
    rows = {line.split()[0]: line for line in out.splitlines()[1:]}
    assert rows["sample-mcts-1"].rstrip().endswith("> +286.6 (20 pairs)  sample") or (
        "> +286.6 (20 pairs)" in rows["sample-mcts-1"]
    )
    assert "pairs)" not in rows["sample-greedy-1"]  # 200 pairs: enough
