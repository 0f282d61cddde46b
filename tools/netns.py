"""A private network namespace for playing together over real WebRTC, in the browser tests
(e2e/test_together.py) and the benchmark (benchmarks/together.py).

Every connection made inside stays on this machine: the namespace has only a loopback and a
veth pair whose two ends are both inside it, so Chromium has an address to offer as a host
candidate and nothing can leave. Nothing here configures a STUN or TURN server, and neither
may its users. Making one needs root and iproute2 (``ip netns``); where it cannot be made,
:class:`Unavailable` says why.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SETUP = [
    # No IPv6: the kernel would give each end of the veth pair a link-local address that stays
    # "tentative" for about two seconds after the link comes up, and the change when it settles
    # makes Chromium abandon whatever it is loading (net::ERR_NETWORK_CHANGED).
    ["sysctl", "-q", "-w", "net.ipv6.conf.all.disable_ipv6=1"],
    ["sysctl", "-q", "-w", "net.ipv6.conf.default.disable_ipv6=1"],
    ["ip", "link", "set", "lo", "up"],
    ["ip", "link", "add", "pl0", "type", "veth", "peer", "name", "pl1"],
    ["ip", "addr", "add", "10.77.0.1/24", "dev", "pl0"],
    ["ip", "addr", "add", "10.77.0.2/24", "dev", "pl1"],
    ["ip", "link", "set", "pl0", "up"],
    ["ip", "link", "set", "pl1", "up"],
    ["ip", "route", "add", "default", "via", "10.77.0.2", "dev", "pl0"],
]


class Unavailable(Exception):
    """The namespace cannot be made on this machine (the message says why)."""


def inside(name: str, command: list[str]) -> list[str]:
    """``command`` run inside the namespace ``name``."""
    return ["ip", "netns", "exec", name, *command]


@contextmanager
def private_namespace(name: str) -> Iterator[str]:
    """Make the namespace ``name`` with its loopback and veth pair; deleted on leaving."""
    if os.geteuid() != 0 or not shutil.which("ip"):
        raise Unavailable("needs root and iproute2 to make a private network namespace")
    made = subprocess.run(["ip", "netns", "add", name], capture_output=True, text=True)
    if made.returncode:
        raise Unavailable(f"cannot make a network namespace: {made.stderr.strip()}")
    try:
        for command in SETUP:
            step = subprocess.run(inside(name, command), capture_output=True, text=True)
            if step.returncode:
                shown = " ".join(command)
                raise Unavailable(f"cannot set up the namespace ({shown}): {step.stderr}")
        wait_until_settled(name)
        yield name
    finally:
        subprocess.run(["ip", "netns", "del", name], capture_output=True)


def wait_until_settled(name: str, seconds: float = 10.0) -> None:
    """Return once both ends of the veth pair are up, carrier and all (the kernel reports it
    a moment after ``ip link set up``), so that Chromium, started next, sees no change."""
    deadline = time.monotonic() + seconds
    while True:
        links = subprocess.run(
            inside(name, ["ip", "-o", "link", "show", "type", "veth"]),
            capture_output=True,
            text=True,
        ).stdout.splitlines()
        if len(links) == 2 and all("LOWER_UP" in line for line in links):
            return
        if time.monotonic() > deadline:
            raise Unavailable(f"the namespace's links did not come up: {links}")
        time.sleep(0.05)


def chromium_inside(name: str, chromium: str, directory: Path) -> Path:
    """A script in ``directory`` that runs ``chromium`` inside the namespace (for Playwright's
    ``executable_path``, when the driving process stays outside it)."""
    wrapper = directory / "chromium-in-netns"
    wrapper.write_text(f'#!/bin/sh\nexec ip netns exec {name} {chromium} "$@"\n')
    wrapper.chmod(0o755)
    return wrapper
