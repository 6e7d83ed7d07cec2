"""Every label, header, button and table of every page is whole, at 1280 and 1920 pixels
wide and in each language, and the app makes no request outside the machine. Besides: the
Play board's squares line up row by row (an animal's square no lower than an empty one),
the Endgames board and piece picker speak the page's language, and a bot spec in the Games
replay wraps only after its separators.

One dashboard server and one browser tab for the whole file: each page is loaded once per
language at 1280 pixels, measured, then resized to 1920 and measured again (not reloaded);
every test checks its part of those visits. A text is cut when its element's content is
wider than its box (``scrollWidth > clientWidth``: an ellipsis, a clipped or spilled label,
a table whose columns hide behind a scroll bar, a select box whose value does not fit); a
box that lets its children overflow visibly counts only for its own text; a text or a
button must lie within its column. Tables drawn on a canvas (``st.dataframe``) and charts
are not measured; the charts of how games end are measured apart (their plot area and
legend, as loaded at 1280 pixels). The data folder holds a small study, so the Studies page
shows its whole report.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboard.i18n import text
from dashboard.job_list import jobs_dir
from engine.codes import ANIMAL_NAMES
from sim.bots.spec import canonical_bot
from sim.report.names import animal_name
from sim.stats.synthetic import synthetic_table
from sim.storage.writing import write_games_chunk
from sim.tablebase.build import build_tables
from sim.tablebase.material import parse_material
from sim.tablebase.store import tables_root
from tests.support.browser import TIMEOUT, chromium, copy_sample, wait_idle
from tests.support.dataset import MIXED_STUDY, play_study
from tests.support.server import dashboard_server

pytestmark = pytest.mark.browser

PAGES = ("", "compare", "bots", "games", "endgames", "play", "simulate", "studies")
LANGS = ("en", "zh", "pt")
# The Games page is the slowest to load; its texts are measured in English only.
ENGLISH_ONLY = ("games",)
WIDTHS = (1280, 1920)
LOCAL = ("http://127.0.0.1:", "http://localhost:", "data:", "blob:", "about:")

# Every element of the main area and the sidebar whose text (or an input's value) is wider
# than its box, after two frames (the layout settled at the new width).
CUT_JS = """async () => {
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const out = [];
  const COLUMN = '[data-testid="stColumn"], [data-testid="stMainBlockContainer"], '
               + '[data-testid="stSidebarContent"]';
  const roots = document.querySelectorAll('[data-testid="stMain"], [data-testid="stSidebar"]');
  for (const root of roots) for (const e of root.querySelectorAll('*')) {
    if (!(e instanceof HTMLElement) || e.clientWidth <= 2) continue;  // hidden a11y text
    if (e.closest('[data-testid="stDataFrame"], [data-testid="stPlotlyChart"]')) continue;
    const text = (e.tagName === 'INPUT' ? e.value : e.innerText || '').trim();
    if (!text) continue;
    const what = `${e.getAttribute('data-testid') || e.tagName}: ${text.slice(0, 60)}`;
    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (own || e.tagName === 'BUTTON') {  // a text or a button outside its column
      const box = e.getBoundingClientRect();
      const col = e.closest(COLUMN).getBoundingClientRect();
      if (box.left < col.left - 1 || box.right > col.right + 1) {
        out.push(`${what} (${Math.round(box.left)}–${Math.round(box.right)} px outside`
                 + ` its column ${Math.round(col.left)}–${Math.round(col.right)} px)`);
        continue;
      }
    }
    if (e.scrollWidth <= e.clientWidth + 1) continue;
    // A box that shows what overflows it cuts nothing, unless its own text spills out.
    if (getComputedStyle(e).overflowX === 'visible' && !own && e.tagName !== 'INPUT') continue;
    out.push(`${what} (${e.scrollWidth} > ${e.clientWidth} px)`);
  }
  return out;
}"""
# The Play board's rows whose squares do not all sit at the same height.
JAGGED_JS = """() => {
  const tops = {};
  for (const b of document.querySelectorAll('div[class*="st-key-sq_"] button')) {
    const sq = +b.closest('div[class*="st-key-sq_"]').className.match(/st-key-sq_(\\d+)/)[1];
    (tops[Math.floor(sq / 7) + 1] ||= []).push(Math.round(b.getBoundingClientRect().top));
  }
  return Object.entries(tops).filter(([, t]) => Math.max(...t) - Math.min(...t) > 1)
    .map(([rank, t]) => `rank ${rank}: tops ${Math.min(...t)}..${Math.max(...t)} px`);
}"""
# The words drawn on the boards of the main area (SVG text).
BOARD_WORDS_JS = """() => [...document.querySelectorAll('[data-testid="stMain"] svg text')]
  .map(e => e.textContent.trim()).filter(Boolean)"""
# Inline code holding a spec (with ":", "," or "+") that wraps after any other character.
SPEC_WRAP_JS = """() => {
  const bad = [];
  for (const code of document.querySelectorAll('[data-testid="stMain"] p code')) {
    const all = code.textContent;
    if (!/[:,+]/.test(all)) continue;
    const walk = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    let top = null, before = '';
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      for (let i = 0; i < n.length; i++) {
        const r = document.createRange();
        r.setStart(n, i);
        r.setEnd(n, i + 1);
        const box = r.getClientRects()[0];
        if (!box) continue;
        if (top !== null && box.top > top + 2 && !':,+'.includes(before))
          bad.push(`${all} breaks after "${before}"`);
        top = box.top;
        before = n.data[i];
      }
    }
  }
  return bad;
}"""
ENGLISH_WORDS = {"DEN", "trap", *(animal_name(a, "en") for a in ANIMAL_NAMES)}


def page_faults(page, lang: str, path: str) -> list[str]:  # noqa: ANN001
    """What this page's own checks find wrong at the current width (see the notes)."""
    if path == "play":
        return page.evaluate(JAGGED_JS)
    if path == "games":
        return page.evaluate(SPEC_WRAP_JS)
    if path != "endgames":
        return []
    words = page.evaluate(BOARD_WORDS_JS)
    faults = []
    den, lion = text(lang, "board.den"), animal_name("lion", lang)
    if den not in words or lion not in words:
        faults.append(f"the board lacks {den!r} or {lion!r}: {words}")
    if lang != "en" and ENGLISH_WORDS & set(words):
        faults.append(f"English on the board: {sorted(ENGLISH_WORDS & set(words))}")
    picker = page.locator('[data-testid="stSelectbox"]').filter(
        has_text=text(lang, "endgames.heat_piece")
    )
    shown = picker.first.locator("input").first.input_value()  # the chosen piece
    if lion not in shown:
        faults.append(f"the piece picker shows {shown!r}, not {lion!r}")
    return faults


# The page is drawn: no placeholder of an element still waiting for the script, and every
# chart has drawn.
DRAWN = """() =>
  !document.querySelector('[data-testid^="stSkeleton"], [data-testid="stAppSkeleton"]')
  && [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
       .every(el => el.querySelector('.main-svg'))"""
# The last element of each page whose script runs long: the page has drawn once it shows.
LAST = {"studies": ".st-key-study_report_csv"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The dashboard on a private copy of the bundled sample, with a launch that is still
    starting (its process, this one, is alive): the Simulate page shows its Cancel button;
    and a lopsided matchup (one bot wins every game) whose Elo intervals are open
    ("> +407.0") and whose normalized Elo is missing ("-")."""
    data: Path = copy_sample(tmp_path_factory.mktemp("layout") / "data")
    play_study(MIXED_STUDY.format(name="layout"), data)
    mcts = canonical_bot("mcts:playouts=200")  # a bot that meets random only here
    lopsided = synthetic_table(40, batch_id="lopsided", bots=(mcts, "random"),
                               elo={mcts: 3000}, draw_rate=0.0, seed=5)  # fmt: skip
    write_games_chunk(data, "lopsided", lopsided)
    jobs_dir(data).mkdir(parents=True)
    # The Endgames page draws its board once a table is on disk: a lion against an elephant.
    build_tables("standard", [parse_material("L v e")], tables_root(data))
    launch = {"group": "layout-starting", "batch_ids": ["layout-starting"], "pid": os.getpid(),
              "specs": [{"rules": "standard", "red": "random", "blue": "greedy", "games": 10}],
              "launched_at": "2026-01-01T00:00:00Z"}  # fmt: skip
    (jobs_dir(data) / "layout-starting.json").write_text(json.dumps(launch), encoding="utf-8")
    log = tmp_path_factory.mktemp("layout-log") / "dashboard.log"
    with dashboard_server(data, log) as url:
        yield url


# Each chart of how games end: its plot area and whether its legend scrolls.
ENDINGS_JS = """() => [...document.querySelectorAll(
    '.st-key-overview_reasons, .st-key-cmp_reasons')].map(el => {
  const box = el.getBoundingClientRect();
  const plot = el.querySelector('.nsewdrag').getBoundingClientRect();
  const scroll = el.querySelector('.legend .scrollbar');
  return {key: el.className.match(/st-key-[a-z_]+/)[0], width: box.width, height: box.height,
          plotWidth: plot.width, plotHeight: plot.height,
          legendScroll: scroll ? scroll.getBoundingClientRect().height : 0};
})"""


# The text of every cell of the static tables, and the cells Markdown made into something
# else (a quotation, a list, emphasis, code, a link, maths, a heading, a coloured span) or
# that hold an invisible character (a zero-width space after a thousands separator).
CELLS_JS = """() => [...document.querySelectorAll(
    '[data-testid="stTable"] td, [data-testid="stTable"] th')].map(c => c.innerText.trim())"""
NOT_LITERAL_JS = """() => [...document.querySelectorAll(
    '[data-testid="stTable"] td, [data-testid="stTable"] th')].filter(c =>
  c.querySelector('blockquote, ul, ol, li, h1, h2, h3, h4, h5, h6, em, strong, del, code, '
                  + 'a, hr, .katex, .stMarkdownColoredText, '
                  + '[data-testid="stHeadingWithActionElements"]')
  || /[\\u200b-\\u200d\\u2060\\ufeff\\u00ad]/.test(c.textContent))
  .map(c => c.innerHTML.slice(0, 200))"""


# The numbers of the static tables' cells that wrap across lines (a number is one word; the
# numbers inside a bot spec, "playouts=200", are the spec's letters).
SPLIT_NUMBERS_JS = """async () => {
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const out = [];
  for (const cell of document.querySelectorAll('[data-testid="stTable"] td')) {
    const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const m of node.textContent.matchAll(/(?<![\\w=/.,])[-+]?\\d[\\d.,]*\\d%?(?![\\w])/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (lines.size > 1) out.push(m[0]);
      }
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def visits(server: str) -> dict:
    """Every page in every language, loaded once in one tab at 1280 pixels (then resized to
    1920) and measured there: the requests that left the machine; the texts cut and the
    page's faults at each width; the charts of how games end (Overview, Compare) and the
    By rules table, on the page as loaded at 1280; the Bots page's table cells, and the
    numbers wrapped across lines at each width. Each test below checks its part."""
    out: dict = {"outside": [], "cut": {}, "faults": {}, "endings": {}, "by_rules": {},
                 "bots": {}, "split": {}}  # fmt: skip
    with chromium() as browser:
        context = browser.new_context(viewport={"width": WIDTHS[0], "height": 1400})
        context.on(
            "request", lambda r: None if r.url.startswith(LOCAL) else out["outside"].append(r.url)
        )
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        for lang in LANGS:
            for path in PAGES:
                if lang != "en" and path in ENGLISH_ONLY:
                    continue
                page.set_viewport_size({"width": WIDTHS[0], "height": 1400})
                page.goto(f"{server}/{path}?lang={lang}")
                page.locator("h1").first.wait_for()
                if path in LAST:
                    page.locator(LAST[path]).wait_for(timeout=TIMEOUT)
                wait_idle(page)
                page.wait_for_function(DRAWN, timeout=TIMEOUT)
                assert not page.locator('[data-testid="stException"]').count(), (lang, path)
                if path in ("", "compare"):
                    out["endings"][lang, path] = page.evaluate(ENDINGS_JS)
                if path == "":
                    page.locator(".st-key-overview_by_rules_chart .main-svg").first.wait_for()
                    header = text(lang, "overview.col_min")
                    table = page.locator('[data-testid="stTable"]', has_text=header).first
                    out["by_rules"][lang] = table.count()
                if path == "bots":
                    out["bots"][lang] = (page.evaluate(NOT_LITERAL_JS), page.evaluate(CELLS_JS))
                if path == "simulate":
                    show_all = page.locator(".st-key-sim_show_all label")  # the study's batches
                    if show_all.count():
                        show_all.first.click()
                        wait_idle(page)
                    cancel = page.get_by_role("button", name=text(lang, "simulate.cancel"))
                    cancel.first.wait_for()
                for width in WIDTHS:
                    page.set_viewport_size({"width": width, "height": 1400})
                    where = f"{lang} /{path} at {width} px"
                    out["cut"][where] = page.evaluate(CUT_JS)
                    out["faults"][where] = page_faults(page, lang, path)
                    if path == "bots":
                        out["split"][lang, width] = page.evaluate(SPLIT_NUMBERS_JS)
        context.close()
    return out


def test_every_text_is_whole_and_no_request_leaves_the_machine(visits: dict) -> None:
    visited = len(LANGS) * len(PAGES) - (len(LANGS) - 1) * len(ENGLISH_ONLY)
    assert len(visits["cut"]) == len(WIDTHS) * visited
    assert not visits["outside"], sorted(set(visits["outside"]))
    cut = {where: found for where, found in visits["cut"].items() if found}
    assert not cut, "\n".join(f"{where}: {found}" for where, found in cut.items())
    faults = {where: found for where, found in visits["faults"].items() if found}
    assert not faults, "\n".join(f"{where}: {found}" for where, found in faults.items())


def test_how_games_end_and_by_rules_fit_at_1280_pixels(visits: dict) -> None:
    """How games end (Overview, Compare): the plot takes half the chart's width and height
    at least (no squeezed bars), its legend no scroll bar; By rules: its dots and a table
    shown whole (an HTML table, measured by the test above), in every language."""
    assert len(visits["endings"]) == 2 * len(LANGS)
    bad: list[str] = []
    for (lang, path), found in visits["endings"].items():
        assert len(found) == 1, (lang, path, found)
        for c in found:
            if (c["legendScroll"] or c["plotWidth"] < c["width"] / 2
                    or c["plotHeight"] < c["height"] / 2):  # fmt: skip
                bad.append(f"{lang} /{path}: {c}")
    assert not bad, "\n".join(bad)
    assert visits["by_rules"] == dict.fromkeys(LANGS, 1)


def test_the_bots_tables_show_each_cell_as_written_in_every_language(visits: dict) -> None:
    assert sorted(visits["bots"]) == sorted(LANGS)
    for lang, (not_literal, cells) in visits["bots"].items():
        assert not not_literal, lang
        thousands = re.compile(r"\d" + ("\\." if lang == "pt" else ",") + r"\d{3}")
        assert any(c.startswith("> +") for c in cells), (lang, "an open interval")
        assert any(c.startswith("< -") for c in cells), (lang, "an open interval")
        assert "-" in cells, (lang, "a missing figure")
        assert any(thousands.search(c) for c in cells), (lang, "a number with thousands")
    assert len(visits["split"]) == len(LANGS) * len(WIDTHS)
    for (lang, width), split in visits["split"].items():
        assert not split, (lang, width, split)
