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
