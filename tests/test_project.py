"""The project as a whole: the README opens with the two commands, CI runs exactly the test
command, the top-level layout, the code's shape (module sizes, packages, no import cycle,
imports inside functions that say why) and the version beside the changelog."""

from __future__ import annotations

import ast
import dataclasses
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import engine
from engine.codes import REASONS
from engine.rules import PRESETS, Ruleset
from sim.storage.schema import GAME_SCHEMA, SCHEMA_VERSION
from tests.support import ROOT, layers


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert block, "README must open with a sh code block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_opens_with_exactly_two_commands() -> None:
    commands = readme_commands()
    assert len(commands) == 2
    assert "dsq dashboard" in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert readme_commands()[1] in ci


def test_top_level_layout_is_the_design_cards() -> None:
    allowed = {
        "pyproject.toml",
        "README.md",
        "engine",
        "sim",
        "dashboard",
        "data",
        "tests",
        ".ci",
        "benchmarks",
        "docs",
        ".git",
        ".gitignore",
    }
    import subprocess

    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode != 0:  # not a git checkout: look at the folder itself
        names = {p.name for p in ROOT.iterdir() if not p.name.endswith(".egg-info")}
    else:
        names = {line.split("/")[0] for line in tracked.stdout.splitlines()}
    assert names <= allowed, f"unexpected top-level entries: {sorted(names - allowed)}"


def _project_modules() -> dict[str, Path]:
    """Every module of the packages (not the tests), by dotted name."""
    out = {}
    for pkg in ("engine", "sim", "dashboard"):
        for path in (ROOT / pkg).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


MAX_MODULE_LINES = 400  # a module holds one concept; past this, it holds two


def test_no_module_over_the_line_cap() -> None:
    """The packages' modules, the tests' and the benchmarks'."""
    paths = [*_project_modules().values(), *(ROOT / "tests").rglob("*.py")]
    paths += (ROOT / "benchmarks").rglob("*.py")
    long = {
        str(path.relative_to(ROOT)): n
        for path in paths
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert not long, long


def test_sim_holds_only_packages_and_its_two_front_doors() -> None:
    """The ``dsq`` command (``cli.py``) and the Python API (``api.py``)."""
    loose = {p.name for p in (ROOT / "sim").glob("*.py")}
    assert loose <= {"__init__.py", "cli.py", "api.py"}, loose


def _runtime_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, those inside functions too, but not those under
    ``if TYPE_CHECKING:`` (which import nothing at run time)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (i for n in node.orelse for i in _runtime_imports_of(n))
            continue
        yield from _runtime_imports_of(node)


def _runtime_imports_of(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node
    else:
        yield from _runtime_imports(node)


def _function_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements inside functions (each once, however deeply nested)."""
    seen: set[int] = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in seen:
                    seen.add(id(node))
                    yield node


def test_imports_inside_functions_say_why() -> None:
    """An import inside a function is there for a reason (start-up time, an optional
    dependency) that a ``# lazy: why`` comment gives, on its line or the line above; the
    imports right after it share it."""
    unexplained = []
    for path in _project_modules().values():
        lines = path.read_text(encoding="utf-8").splitlines()
        explained: set[int] = set()
        for node in sorted(_function_imports(ast.parse("\n".join(lines))), key=lambda n: n.lineno):
            line = node.lineno
            if "# lazy:" in lines[line - 1] or lines[line - 2].strip().startswith("# lazy:"):
                explained.add(node.end_lineno or line)
            elif line - 1 in explained:  # continues an explained run of imports
                explained.add(node.end_lineno or line)
            else:
                unexplained.append(f"{path.relative_to(ROOT)}:{line}: {lines[line - 1].strip()}")
    assert not unexplained, "imports inside functions without a '# lazy: why' comment:\n" + (
        "\n".join(unexplained)
    )


def test_no_import_cycle_between_modules() -> None:
    """The imports, at module level and inside functions alike, form no cycle."""
    modules = _project_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        deps: set[str] = set()
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif node.module and node.level == 0:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            deps |= {t for t in targets if t in modules and t != name}
        # importing a package's submodule runs the package's __init__ first (unless the
        # importer is inside that package, whose __init__ is then already running)
        parents = {d.rsplit(".", 1)[0] for d in deps if "." in d}
        graph[name] = deps | {p for p in parents if not name.startswith(p + ".")} - {name}
    state: dict[str, int] = {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for dep in sorted(graph.get(node, ())):
            if dep not in graph:
                continue
            if state.get(dep) == 1:
                raise AssertionError("import cycle: " + " -> ".join(stack + [node, dep]))
            if dep not in state:
                visit(dep, stack + [node])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [])


def _imported_modules(path: Path) -> Iterator[str]:
    """The project modules and packages one module imports at run time, inside functions
    too (``from pkg import name`` yields ``pkg`` and ``pkg.name``)."""
    for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{a.name}" for a in node.names)


def test_packages_import_only_from_layers_below() -> None:
    """Every import, at module level or inside a function, goes from a package to one in a
    lower layer of ``tests/support/layers.py`` (or stays inside its own package); every
    package is in the list, and the package graph has no cycle."""
    modules = _project_modules()
    ranks = layers.rank()
    packages = {layers.package_of(name) for name in modules}
    assert packages == set(ranks), ("packages not in the layer list", packages ^ set(ranks))
    upward = []
    for name, path in sorted(modules.items()):
        source = layers.package_of(name)
        for target in _imported_modules(path):
            if target not in modules:
                continue
            dest = layers.package_of(target)
            if dest != source and ranks[dest] >= ranks[source]:
                upward.append(f"{path.relative_to(ROOT)}: {source} imports {target}")
    assert not upward, "imports that do not go down a layer:\n" + "\n".join(sorted(set(upward)))


def test_the_map_of_packages_is_the_layer_list() -> None:
    """docs/team-contracts.md shows the layer list as it is (``python -m
    tests.support.layers`` rewrites it), naming every package."""
    assert layers.documented_map() == layers.render_map()


def test_user_documentation_speaks_of_the_project_only() -> None:
    # No issue numbers, briefs or notes about how the project was built.
    docs = [ROOT / "README.md", ROOT / "data" / "README.md", *(ROOT / "docs").rglob("*.md")]
    pattern = re.compile(r"\bissue\s*#?\d|\bbriefs?\b|working tree|half-edited", re.I)
    for path in docs:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not pattern.search(line), f"{path.relative_to(ROOT)}:{number}: {line}"


def _changelog() -> tuple[str, dict[str, str]]:
    """docs/changelog.md and its entries by version, newest first (``## 0.4.0 (...)``)."""
    text = (ROOT / "docs" / "changelog.md").read_text(encoding="utf-8")
    entries = {part.split()[0]: part for part in re.split(r"^## ", text, flags=re.M)[1:]}
    return text, entries


def test_the_version_is_one_constant_that_pyproject_reads() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "engine.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", engine.__version__)


def test_changelog_has_the_current_version_and_schema() -> None:
    """The newest entry is the current version and names the current schema version; the
    versions go down; every column, preset, option and end reason is in some entry (so a
    change of the schema or of the rules comes with an entry, and a new version)."""
    text, entries = _changelog()
    versions = list(entries)
    assert versions[0] == engine.__version__, (versions[0], engine.__version__)
    assert entries[versions[0]].startswith(f"{versions[0]} (schema version {SCHEMA_VERSION})")
    numbers = [tuple(int(x) for x in v.split(".")) for v in versions]
    assert numbers == sorted(numbers, reverse=True) and len(set(numbers)) == len(numbers)
    names = [
        *GAME_SCHEMA.names,
        *PRESETS,
        *(f.name for f in dataclasses.fields(Ruleset)),
        *REASONS,
    ]
    missing = [name for name in names if f"`{name}`" not in text]
    assert not missing, f"docs/changelog.md does not mention {missing}"
