"""A private network namespace for playing together over real WebRTC, in the browser tests
(e2e/test_together.py) and the benchmark (benchmarks/together.py).

Every connection made inside stays on this machine: the namespace has only a loopback and a
veth pair whose two ends are both inside it, so Chromium has an address to offer as a host
candidate and nothing can leave. Nothing here configures a STUN or TURN server, and neither
may its users. Making one needs iproute2 (``ip netns``) and root: the commands run as they
are when this process is root, else through ``sudo -n`` (a CI runner's passwordless sudo).
Where it cannot be made, :class:`Unavailable` says why; the tests skip then, except in CI
(:func:`in_ci`), where they fail: the published workflow must run them.
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


def in_ci() -> bool:
    """Whether this runs in continuous integration: the ``CI`` variable set (GitHub Actions
    and most other services set ``CI=true``), to anything but empty, ``0`` or ``false``."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false")


def privilege() -> list[str]:
    """What to put before a command that needs root: nothing as root, else ``sudo -n``
    (:class:`Unavailable` when sudo would ask for a password, or there is none)."""
    if os.geteuid() == 0:
        return []
    if shutil.which("sudo"):
        probe = subprocess.run(["sudo", "-n", "true"], capture_output=True, text=True)
        if probe.returncode == 0:
            return ["sudo", "-n"]
    raise Unavailable("needs root, or sudo without a password, to make a network namespace")


def inside(name: str, command: list[str]) -> list[str]:
    """``command`` run inside the namespace ``name`` (as root: see :func:`privilege`)."""
    return [*privilege(), "ip", "netns", "exec", name, *command]


@contextmanager
def private_namespace(name: str) -> Iterator[str]:
    """Make the namespace ``name`` with its loopback and veth pair; deleted on leaving."""
    if not shutil.which("ip"):
        raise Unavailable("needs iproute2 (ip) to make a private network namespace")
    root = privilege()
    made = subprocess.run([*root, "ip", "netns", "add", name], capture_output=True, text=True)
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
        subprocess.run([*root, "ip", "netns", "del", name], capture_output=True)


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
    command = " ".join(inside(name, [chromium]))
    wrapper.write_text(f'#!/bin/sh\nexec {command} "$@"\n')
    wrapper.chmod(0o755)
    return wrapper
