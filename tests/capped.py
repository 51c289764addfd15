"""Run code in a child process that can cap how much more memory it may take:
how the tests make the solver's tables outgrow "the machine" for real."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

needs_proc = pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs Linux's /proc")

_CAP_MEMORY = '''
import resource


def cap_memory(megabytes):
    """Let this process grow by at most ``megabytes`` more address space."""
    with open("/proc/self/statm") as f:
        size = int(f.read().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (size + megabytes * 2**20, resource.RLIM_INFINITY))
'''


def run_capped(code: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh Python, where ``cap_memory(megabytes)`` is defined."""
    program = _CAP_MEMORY + textwrap.dedent(code)
    return subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=timeout
    )
