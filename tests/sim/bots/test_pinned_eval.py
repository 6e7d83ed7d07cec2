"""Pinned evaluations: the digest of an evaluation's content, ``eval=NAME@HEX`` in specs,
the copies kept of replaced evaluations, and :func:`pin_bot`."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from engine.rules import parse_rules
from sim.bots import evalfile
from sim.bots.evalfile import bot_evaluation, eval_digest, find_eval, resolve
from sim.bots.evalformat import EvalError, EvalFile, Weights, format_eval, parse_eval
from sim.bots.params import BotSpecError
from sim.bots.pinning import names_recorded, pin_bot, pinned_differences, recorded_pattern
from sim.bots.spec import parse_bot, short_spec

STANDARD = parse_rules("standard")
AB2 = "alphabeta:depth=2,noise=0,time_ms=0,nodes=0,contempt=30,tt_mb=16"


def shipped(name: str) -> EvalFile:
    return find_eval(name, None)


def changed(ef: EvalFile, tempo: int = 1) -> EvalFile:
    """``ef`` with other weights (the tempo bonus moved)."""
    w = dataclasses.replace(ef.weights, tempo=ef.weights.tempo + tempo)
    return dataclasses.replace(ef, weights=w)


def test_the_digest_is_the_content_s_and_not_its_metadata() -> None:
    ef = shipped("standard")
    pin = eval_digest(ef)
    assert re.fullmatch(r"[0-9a-f]{12}", pin)
    assert eval_digest(parse_eval(format_eval(ef), "standard")) == pin  # read back
    bare = dataclasses.replace(ef, name="other", meta={"note": "x"}, accepted={})
    assert eval_digest(bare) == pin  # name, [fitted] and [accepted] left out
    assert eval_digest(changed(ef)) != pin
    assert eval_digest(dataclasses.replace(ef, rules="standard+dog_over_wolf")) != pin
    assert len({eval_digest(shipped(n)) for n in ("standard", "yeshou", "datou")}) == 3


def test_the_digest_of_fixed_weights_stays_the_same() -> None:
    """The definition of the digest does not drift: a pin once recorded keeps its meaning."""
    w = Weights(
        material=(1, 2, 3, 4, 5, 6, 7, 8),
        squares=tuple(tuple(range(a, a + 63)) for a in range(8)),
        first_danger=(0,) * 8,
        second_danger=(1,) * 8,
        tempo=5,
        order=(8, 7, 6, 5, 4, 3, 2, 1),
    )
    assert eval_digest(EvalFile("x", "standard", w)) == "2569f0bfe5c4"


def test_specs_take_a_pinned_evaluation_and_refuse_bad_pins() -> None:
    spec = parse_bot("alphabeta:depth=2,eval=Standard@ABCDEF012345")
    assert spec.params["eval"] == "standard@abcdef012345"
    assert spec.canonical == f"{AB2},eval=standard@abcdef012345"
    assert parse_bot(spec.canonical) == spec
    assert short_spec(spec.canonical) == "alphabeta:depth=2,eval=standard@abcdef012345"
    for bad in ("standard@abc", "auto@abcdef012345", "classic@abcdef012345", "x@abcdef01234g"):
        with pytest.raises(BotSpecError, match="NAME@HEX"):
            parse_bot(f"alphabeta:eval={bad}")


def test_pin_bot_pins_auto_to_the_preset_s_shipped_evaluation() -> None:
    for rules in ("standard", "yeshou", "datou"):
        pin = eval_digest(shipped(rules))
        assert pin_bot("alphabeta:depth=2", rules) == f"{AB2},eval={rules}@{pin}"
    pinned = pin_bot("mcts:playouts=10", "yeshou")
    assert pinned.endswith(f",eval=yeshou@{eval_digest(shipped('yeshou'))}")
    assert pin_bot(pinned, "yeshou") == pinned  # kept as it is
    named = pin_bot("alphabeta:depth=2,eval=standard", "standard+no_capture_plies=100")
    assert named == pin_bot("alphabeta:depth=2", "standard")
    for same in ("greedy", "random", "human", "alphabeta:depth=2,eval=classic"):
        assert pin_bot(same, "standard") == (same if same == "human" else parse_bot(same).canonical)
    # a data folder's evaluation is left as written when no data folder is given
    assert pin_bot("alphabeta:eval=mine", "standard").endswith(",eval=mine")


def test_auto_without_a_shipped_evaluation_pins_the_classic_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(evalfile, "SHIPPED", tmp_path)  # nothing shipped
    monkeypatch.setattr("sim.bots.pinning.SHIPPED", tmp_path)
    pinned = pin_bot("mcts:playouts=10", "standard")
    assert "eval=" not in pinned and "values=450/" in pinned
    # the classic spec names the same bot otherwise (leaf and bias as auto's)
    assert parse_bot(pinned).params == {**parse_bot("mcts:playouts=10").params, "eval": "classic"}


def test_a_wrong_pin_is_refused_in_one_line() -> None:
    pin = eval_digest(shipped("standard"))
    with pytest.raises(EvalError) as err:
        resolve("standard@000000000000", STANDARD, None)
    assert str(err.value) == (
        f"evaluation standard@000000000000 is not available: the shipped standard is now "
        f"standard@{pin}"
    )
    with pytest.raises(EvalError, match="not available"):
        pin_bot("alphabeta:eval=standard@000000000000", "standard")


def test_a_kept_copy_is_found_by_its_pin(tmp_path: Path) -> None:
    old = changed(shipped("standard"), tempo=7)
    pin = eval_digest(old)
    folder = tmp_path / "evals"
    (folder / "pinned").mkdir(parents=True)
    (folder / "pinned" / f"standard@{pin}.toml").write_text(format_eval(old))
    got = resolve(f"standard@{pin}", STANDARD, folder)
    assert got is not None and got.weights == old.weights
    with pytest.raises(EvalError, match="not available"):
        resolve(f"standard@{pin}", STANDARD, None)  # not shipped
    assert pin_bot(f"alphabeta:eval=standard@{pin}", "standard", tmp_path).endswith(pin)
    # the bot plays the kept weights
    _, block, name = bot_evaluation(parse_bot(f"alphabeta:eval=standard@{pin}").params,
                                    STANDARD, folder)  # fmt: skip
    _, today, _ = bot_evaluation(parse_bot("alphabeta").params, STANDARD, folder)
    assert name == "standard" and block is not None and today is not None
    assert (block != today).sum() == 1
    # also beside the data folder's evaluations
    (folder / "pinned" / f"standard@{pin}.toml").rename(folder / f"standard@{pin}.toml")
    assert resolve(f"standard@{pin}", STANDARD, folder) == old


def test_a_shipped_copy_is_found_and_a_mislabelled_one_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = shipped("standard")
    old = changed(now, tempo=-3)
    pin = eval_digest(old)
    (tmp_path / "pinned").mkdir()
    (tmp_path / "standard.toml").write_text(format_eval(now))
    (tmp_path / "pinned" / f"standard@{pin}.toml").write_text(format_eval(old))
    (tmp_path / "pinned" / "standard@0123456789ab.toml").write_text(format_eval(now))
    monkeypatch.setattr(evalfile, "SHIPPED", tmp_path)
    assert resolve(f"standard@{pin}", STANDARD, None) == old
    assert resolve("auto", STANDARD, None) == now
    with pytest.raises(EvalError, match=f"its content is standard@{eval_digest(now)}"):
        resolve("standard@0123456789ab", STANDARD, None)


def test_a_preset_s_pin_serves_variants_whose_moves_differ_as_auto_does() -> None:
    rules = "standard+rat_cross_capture"
    with pytest.raises(EvalError, match="rat_cross_capture differ"):
        pin_bot("alphabeta:depth=2,eval=standard", rules)  # named: its moves must agree
    pinned = pin_bot("alphabeta:depth=2", rules)
    assert pinned == pin_bot("alphabeta:depth=2", "standard")
    ef = resolve(parse_bot(pinned).params["eval"], parse_rules(rules), None)
    assert ef == shipped("standard")


def test_pinned_differences_says_when_a_pin_is_no_longer_today_s() -> None:
    today = pin_bot("alphabeta:depth=2", "standard")
    assert pinned_differences(today, "standard") is None
    assert pinned_differences(f"{AB2},eval=auto", "standard") is None  # pins nothing
    assert pinned_differences("greedy", "standard") is None
    old = today.rsplit("@", 1)[0] + "@000000000000"
    said = pinned_differences(old, "standard")
    now = today.split("eval=")[1]
    assert said == f"eval=auto pinned standard@000000000000 and pins {now} today"


def test_a_spec_without_a_pin_names_its_pinned_forms() -> None:
    auto = f"{AB2},eval=auto"
    pinned = pin_bot(auto, "yeshou")
    assert names_recorded(auto, pinned) and names_recorded(auto, auto)
    assert not names_recorded(pinned, auto)
    assert not names_recorded(auto, pinned.replace("depth=2", "depth=3"))
    assert not names_recorded(auto, parse_bot(f"{AB2},eval=classic").canonical)
    assert not names_recorded(auto, f"{AB2},eval=mine@0123456789ab")
    mine = f"{AB2},eval=mine"
    assert names_recorded(mine, f"{mine}@0123456789ab")
    assert not names_recorded(mine, pinned)
    assert recorded_pattern(pinned) is None and recorded_pattern("greedy") is None


def test_a_data_folder_s_evaluation_is_pinned_by_its_folder(tmp_path: Path) -> None:
    mine = dataclasses.replace(changed(shipped("standard"), tempo=2), name="mine")
    folder = tmp_path / "evals"
    evalfile.write_eval(folder, mine)
    pin = eval_digest(mine)
    assert pin_bot("alphabeta:eval=mine", "standard", tmp_path).endswith(f",eval=mine@{pin}")
    assert resolve(f"mine@{pin}", STANDARD, folder) == mine
    with pytest.raises(EvalError) as err:
        resolve("mine@0123456789ab", STANDARD, folder)
    assert str(err.value) == (
        f"evaluation mine@0123456789ab is not available: mine in {folder} is now mine@{pin}"
    )
    with pytest.raises(EvalError, match="no evaluation 'mine'"):
        pin_bot(f"alphabeta:eval=mine@{pin}", "standard", tmp_path / "elsewhere")
