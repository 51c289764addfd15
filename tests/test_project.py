"""The project's own promises: the README's two commands and CI stay in step."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[1]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Set up and run", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section)


def test_readme_has_exactly_two_setup_commands():
    commands = readme_commands()
    assert len(commands) == 2
    assert commands[0].endswith("intrigue")
    assert "pytest" in commands[1] and "mypy" in commands[1] and "ruff check" in commands[1]


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert readme_commands()[1] in ci.splitlines()


def test_mypy_is_strict_on_the_package_and_pytest_strict():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config["tool"]["mypy"]["strict"] is True
    assert config["tool"]["mypy"]["files"] == ["src/intrigue"]
    pytest_opts = config["tool"]["pytest"]["ini_options"]
    assert "--strict-markers" in pytest_opts["addopts"] and pytest_opts["filterwarnings"] == [
        "error"
    ]


GAMES = ("Intrigue", "Laggard Lady", "Glencoe", "Salic Law", "Faerie Queen")


def published(mode: str) -> dict[str, str]:
    """Each game's headline figure in docs/winrates.md's table for ``mode``: the
    exact rate where no deal is unknown, else the bounds written "low – high"."""
    figures = {}
    for line in (ROOT / "docs" / "winrates.md").read_text().splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) > 7 and cells[0] in GAMES and cells[1] == mode:
            column = 6 if cells[7] == "exact" else 7
            figures[cells[0]] = re.findall(r"\*\*(.+?)\*\*", cells[column])[0]
    assert sorted(figures) == sorted(GAMES), f"rows of {mode} mode in docs/winrates.md"
    return figures


def test_readme_win_rates_are_the_published_ones():
    """The README repeats some of docs/winrates.md's figures; they must not drift."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## What the numbers say", 1)[1].split("\n## ", 1)[0]
    section = " ".join(section.split())
    auto, manual = section.split("in `manual` mode", 1)
    names = "|".join(GAMES)
    quoted_auto = dict(re.findall(rf"({names})(?: wins)? (\d+\.\d+%)", auto))
    quoted_manual = {
        name: f"{low} – {high}"
        for name, low, high in re.findall(
            rf"({names})(?: wins)? between (\d+\.\d+%) and (\d+\.\d+%)", manual
        )
    }
    quoted_manual.update(re.findall(rf"({names})(?: wins)? exactly (\d+\.\d+%)", manual))
    assert quoted_auto and quoted_manual, "no figures found in the README"
    rates, manual_figures = published("auto"), published("manual")
    assert quoted_auto == {name: rates[name] for name in quoted_auto}
    assert quoted_manual == {name: manual_figures[name] for name in quoted_manual}
    assert "Intrigue" in quoted_manual
