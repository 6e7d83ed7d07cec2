"""Endgames: the endgame tables of a rule set: results by side to move, the longest wins,
where a piece stands best, and the value and best moves of any position."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from dashboard.board import board_svg
from dashboard.charts import LAYOUT, WINNER_COLOURS
from dashboard.endgames import (
    board_fen,
    edit_board,
    heat_grid,
    longest_win_fen,
    materials_on_disk,
    one,
    shares_table,
    text,
    value_text,
)
from dashboard.lang import fox, lang, nf, piece, side
from dashboard.settings import load_settings
from dashboard.urlstate import keep
from engine.board import FILES, NFILES, NRANKS, WATER, piece_letter, square_name
from engine.errors import DsqError
from engine.position import Position
from engine.rules import parse_rules
from sim.storage.paths import dsq_line
from sim.tablebase.analysis import square_heatmap, table_stats
from sim.tablebase.build import build_tables
from sim.tablebase.material import parse_material
from sim.tablebase.probe import probe_fen
from sim.tablebase.store import cache_for, rules_key, tables_root


@st.cache_data(max_entries=64, show_spinner=False)
def cached_heatmap(
    root: str, rules: str, material: str, piece: int, side: int, stamp: float
) -> np.ndarray:
    """Per-square counts of one piece (cached while the table file is unchanged)."""
    return square_heatmap(rules, material, piece, side, root)


def shares_chart(table) -> go.Figure:  # noqa: ANN001 - a DataFrame of shares_table
    """Stacked bars: for each side to move, the shares of Red's wins, draws, Blue's wins."""
    fig = go.Figure()
    labels = [text("to_move", side=side(s)) for s in table["to_move"]]
    for col, name, colour in (
        ("red_share", text("red_wins"), WINNER_COLOURS["red"]),
        ("draw_share", text("draws"), WINNER_COLOURS["draw"]),
        ("blue_share", text("blue_wins"), WINNER_COLOURS["blue"]),
    ):
        fig.add_bar(
            y=labels,
            x=table[col],
            name=name,
            orientation="h",
            marker_color=colour,
            hovertemplate="%{x:.1%}<extra>" + name + "</extra>",
        )
    fig.update_layout(barmode="stack", xaxis_tickformat=".0%", **{**LAYOUT, "height": 220})
    return fig


def heat_chart(grid: np.ndarray, title: str) -> go.Figure:
    """The board-shaped heat map (rank 9 on top), its colour bar titled ``title``."""
    fig = go.Figure(
        go.Heatmap(
            z=grid,
            x=list(FILES),
            y=[str(r) for r in range(NRANKS, 0, -1)],
            zmin=0,
            zmax=1,
            colorscale="RdYlGn",
            colorbar={"title": {"text": title, "side": "right"}, "tickformat": ".0%"},
            hovertemplate="%{x}%{y}: %{z:.1%}<extra></extra>",
        )
    )
    fig.update_layout(**{**LAYOUT, "height": 460, "width": 420})
    fig.update_yaxes(type="category", scaleanchor="x", autorange="reversed")  # rank 9 on top
    fig.update_xaxes(type="category", side="bottom")
    return fig


n = nf()
st.title(text("title"))
st.caption(text("caption"))
data_dir = load_settings().data_dir
root = tables_root(data_dir)
keep("eg_rules", "str", param="eg_rules", default="standard", valid=parse_rules)
rules_text = st.text_input(text("rules"), value="standard", key="eg_rules", help=text("rules_help"))
try:
    ruleset = parse_rules(rules_text)
except DsqError as exc:
    st.error(text("bad_input", reason=exc), icon=":material/error:")
    st.stop()
key = rules_key(ruleset)
names = materials_on_disk(root, ruleset)
# The rule set as given (`standard`); its tables' folder drops what tables ignore.
st.caption(text(one("tables_key", len(names)), key=ruleset.spec, folder=root, count=len(names)))

with st.expander(text("build"), expanded=not names or "eg_built" in st.session_state):
    built = st.session_state.pop("eg_built", None)  # the build of the run before this one
    if built:
        st.success(built)
    if not names:
        build = ("tablebase", "build", "--rules", ruleset.spec, "--pieces", "3")
        st.info(text("no_tables", command=dsq_line(*build, data=data_dir, always=True)))
    cols = st.columns([3, 1])
    wanted = cols[0].text_input(
        text("build_material"), value="LR v e", key="eg_build", help=text("material_help")
    )
    if cols[1].button(text("build"), key="eg_build_go", width="stretch"):
        try:
            material = parse_material(wanted)
            with st.spinner(text("building", material=material.name)):
                report = build_tables(ruleset, [material], root)
            made = [b for b in report if b.how != "present"]
            st.session_state["eg_built"] = text(
                one("built", len(made)),
                count=len(made),
                seconds=n.num(sum(b.seconds for b in made)),
                positions=n.count(sum(b.positions for b in made)),
            )
            st.session_state["eg_material"] = material.name  # shown at once
        except DsqError as exc:
            st.error(text("bad_input", reason=exc), icon=":material/error:")
        else:  # draw the page again: the caption and the list hold the new tables
            st.rerun()
if not names:
    st.stop()

keep("eg_material", "choice", param="material", options=names)
name = st.selectbox(text("material"), names, key="eg_material", help=text("material_help"))
material = parse_material(name)
table = cache_for(root).get(key, material)
if table is None:  # listed a moment ago, gone or unreadable now
    st.error(text("bad_input", reason=f"{name}: no table in {root}"), icon=":material/error:")
    st.stop()
stats = table_stats(ruleset, material, root)
shares = shares_table(stats)

st.subheader(text("shares"))
st.plotly_chart(shares_chart(shares), key="eg_shares")
for col, row in zip(st.columns(2), shares.to_dict("records"), strict=True):
    col.metric(
        text("to_move", side=side(row["to_move"])),
        n.count(row["positions"]) + " " + text("positions"),
    )
    longest = text(one("plies", row["longest_win"]), n=n.count(row["longest_win"]))
    col.markdown(
        f"{text('red_wins')} **{n.pct(row['red_share'])}** ({n.count(row['red'])}) · "
        f"{text('draws')} **{n.pct(row['draw_share'])}** ({n.count(row['draw'])}) · "
        f"{text('blue_wins')} **{n.pct(row['blue_share'])}** ({n.count(row['blue'])})  \n"
        f"{text('longest')}: **{longest}**"
    )

st.subheader(text("heatmap"))
letters = [piece_letter(int(c)) for c in material.codes]


def piece_label(letter: str) -> str:
    """A piece as the placing picker shows it: its letter (the grid's and FEN's) and name."""
    return f"{letter} · {piece(letter)}"


picker_col, side_col = st.columns(2)  # the pickers above the map: a name takes room
keep("eg_piece", "choice", param="heat_piece", default=0, options=range(len(letters)))
keep("eg_mover", "choice", param="heat_mover", default=0, options=(0, 1))
piece_index = picker_col.selectbox(
    text("heat_piece"),
    range(len(letters)),
    format_func=lambda i: piece(letters[i]),
    key="eg_piece",
)
mover = side_col.radio(
    text("heat_side"),
    (0, 1),
    format_func=lambda s: side(("red", "blue")[s]),
    key="eg_mover",
    horizontal=True,
)
stamp = cache_for(root).path(key, material).stat().st_mtime
counts = cached_heatmap(str(root), ruleset.spec, material.name, int(piece_index), int(mover), stamp)
piece_side = 0 if material.codes[int(piece_index)] <= 8 else 1
heat_title = text("heat_colorbar", side=side(("red", "blue")[piece_side]))
grid = heat_grid(counts, piece_side, int(mover))
st.plotly_chart(heat_chart(grid, heat_title), key="eg_heat")
st.caption(
    text(
        "heat_caption",
        piece=piece(letters[int(piece_index)]),
        side=side(("red", "blue")[piece_side]),
        mover=side(("red", "blue")[int(mover)]),
    )
)

st.subheader(text("probe"))
letters_of_material = letters


def _set_fen(fen_text: str) -> None:
    st.session_state["eg_fen"] = fen_text
    st.session_state.pop("eg_error", None)


def _click(square: int) -> None:
    """Put the chosen piece on a clicked square (in a callback: before the next run)."""
    try:
        _set_fen(edit_board(st.session_state["eg_fen"], square, st.session_state.get("eg_place")))
    except DsqError as exc:
        st.session_state["eg_error"] = str(exc)


def _side() -> None:
    try:
        board = Position(None, st.session_state["eg_fen"]).board()
    except DsqError:
        return
    _set_fen(board_fen(board, st.session_state["eg_side"]))


def _longest(values: np.ndarray = table.values) -> None:
    found = longest_win_fen(values, material, 0) or longest_win_fen(values, material, 1)
    if found:
        _set_fen(found)


if st.session_state.get("eg_probe_material") != material.name or "eg_fen" not in st.session_state:
    st.session_state["eg_probe_material"] = material.name
    _set_fen(board_fen([None] * (NFILES * NRANKS), "red"))
    _longest()
st.button(text("load_longest"), key="eg_longest", on_click=_longest)
keep("eg_fen", "str", param="fen", valid=lambda f: Position(ruleset, f) is not None)
fen = st.text_input(text("fen"), key="eg_fen")
try:
    pos = Position(ruleset, fen)
except DsqError as exc:
    st.error(text("bad_input", reason=exc), icon=":material/error:")
    st.stop()
if "eg_error" in st.session_state:
    st.error(text("bad_input", reason=st.session_state.pop("eg_error")), icon=":material/error:")
left, right = st.columns([3, 2])
with right:
    st.selectbox(
        text("place"),
        [None, *letters_of_material],
        key="eg_place",
        format_func=lambda x: text("empty") if x is None else piece_label(x),
    )
    st.session_state["eg_side"] = pos.side
    st.radio(
        text("side_to_move"),
        ("red", "blue"),
        horizontal=True,
        key="eg_side",
        format_func=side,
        on_change=_side,
    )
    board = pos.board()
    st.markdown(f"**{text('setup_grid')}**", help=text("setup_grid_help"))
    for rank in range(NRANKS - 1, -1, -1):
        row = st.columns(NFILES, gap="small")
        for f in range(NFILES):
            sq = rank * NFILES + f
            label = board[sq] or ("~" if WATER[sq] else "·")
            row[f].button(
                label,
                key=f"eg_sq_{sq}",
                help=square_name(sq),
                width="stretch",
                on_click=_click,
                args=(sq,),
            )
with left:
    svg = board_svg(board, dog_over_wolf=ruleset.dog_over_wolf, lang=lang(), fox=fox())
    st.markdown(svg, unsafe_allow_html=True)
    try:
        answer = probe_fen(ruleset, fen, root)
    except DsqError as exc:
        st.warning(text("no_table_for", reason=exc))
    else:
        st.markdown(f"**{value_text(answer.value, answer.plies, pos.side)}**")
        st.markdown(
            text("best", moves=", ".join(answer.best)) if answer.best else text("best_none")
        )
