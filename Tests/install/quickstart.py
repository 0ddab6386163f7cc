#!/usr/bin/env python3
"""The README's Quick start, read from the README itself (standard library only).

  quickstart.py command N     the Quick start's Nth command (1: build the demo, 2: the tests)
  quickstart.py packages N    the Debian packages the Nth command installs (apt-get install)
  quickstart.py check         the first command installs only what Isobar needs; see below

`.ci/run` installs what both commands name and runs the second as it is written, so CI
runs the README's test command and nothing copied from it.

`check` fails unless:
  - the first command installs no test tool: none of its packages, nor anything they pull
    in on a machine with nothing installed (`apt-get install --simulate` against an empty
    dpkg status, recommends included, as `apt-get install -y` does), is Chromium or its
    driver, a Java runtime, or an SSH server or client; without apt lists (no
    `apt-get update` yet) only the list itself is checked, and it says so;
  - it names every system library Isobar links: the `.apt([...])` providers in
    Package.swift and in its dependencies' manifests (GRDB's SQLite), and for each
    `pkgConfig:` name the package that owns its .pc file (dpkg -S), plus pkg-config;
  - it builds the demo (`swift run isobar build`);
  - the second command installs the test tools (chromium, chromium-driver, openssh-server,
    a Java runtime), the pip requirements, and runs Tests/run.sh, which runs swift test,
    Tests/browser/run.sh and Tests/install/run.sh each to its end.
"""

from __future__ import annotations

import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Packages that only the tests need: none of them may come with the first command.
TEST_ONLY = [
    (re.compile(r"^chromium(-.*)?$"), "Chromium"),
    (re.compile(r"^(default-jre|default-jdk|openjdk-.*|java-common|ca-certificates-java|.*-jre(-headless)?)$"), "a Java runtime"),
    (re.compile(r"^(openssh-.*|ssh|dropbear.*)$"), "an SSH server or client"),
]


def commands(readme: Path = REPO / "README.md") -> list[str]:
    """The Quick start's shell blocks, each joined into one line."""
    text = readme.read_text(encoding="utf-8")
    section = re.search(r"^## Quick start\n(.*?)(?=^## )", text, re.S | re.M)
    if not section:
        sys.exit("quickstart: README.md has no '## Quick start' section")
    blocks = re.findall(r"^```sh\n(.*?)^```", section.group(1), re.S | re.M)
    return [re.sub(r"\\\n\s*", "", block).strip() for block in blocks]


def command(n: int) -> str:
    found = commands()
    if not 1 <= n <= len(found):
        sys.exit(f"quickstart: the Quick start has {len(found)} commands, not {n}")
    return found[n - 1]


def packages(line: str) -> list[str]:
    """Every package an `apt-get install` in `line` names."""
    names: list[str] = []
    for part in re.split(r"&&|;|\|\|", line):
        words = shlex.split(part)
        if words[:1] == ["sudo"]:
            words = words[1:]
        if words[:2] == ["apt-get", "install"] or words[:2] == ["apt", "install"]:
            names += [w for w in words[2:] if not w.startswith("-")]
    return names


def forbidden(names: list[str]) -> list[str]:
    return [f"{name} ({why})" for name in names for pattern, why in TEST_ONLY if pattern.match(name)]


def simulated_install(names: list[str]) -> list[str] | None:
    """What `apt-get install -y NAMES` installs on a machine with nothing installed;
    None when apt cannot say (no package lists)."""
    with tempfile.TemporaryDirectory() as empty:
        status = Path(empty) / "status"
        status.write_text("")
        run = subprocess.run(["apt-get", "install", "--simulate", "-o", f"Dir::State::status={status}"] + names,
                             capture_output=True, text=True)
    if run.returncode != 0:
        print(f"quickstart: apt-get --simulate failed ({run.stderr.strip().splitlines()[-1:]}):"
              " only the list was checked (run apt-get update first)")
        return None
    return [line.split()[1] for line in run.stdout.splitlines() if line.startswith("Inst ")]


def linked_libraries() -> tuple[list[str], list[str]]:
    """The Debian packages Package.swift (and its checked-out dependencies) name as
    providers, and the pkg-config names of its system libraries."""
    manifests = [REPO / "Package.swift"] + sorted(Path(p) for p in glob.glob(str(REPO / ".build*/checkouts/*/Package.swift")))
    providers: set[str] = set()
    pkgconfig: set[str] = set()
    for manifest in manifests:
        text = manifest.read_text(encoding="utf-8")
        for group in re.findall(r"\.apt\(\[([^\]]*)\]\)", text):
            providers.update(re.findall(r'"([^"]+)"', group))
        pkgconfig.update(re.findall(r'pkgConfig:\s*"([^"]+)"', text))
    return sorted(providers), sorted(pkgconfig)


def owner_of_pc(name: str) -> str | None:
    run = subprocess.run(["pkg-config", "--variable=pcfiledir", name], capture_output=True, text=True)
    if run.returncode != 0 or not run.stdout.strip():
        return None
    owner = subprocess.run(["dpkg", "-S", f"{run.stdout.strip()}/{name}.pc"], capture_output=True, text=True)
    if owner.returncode != 0:
        return None
    return owner.stdout.split(":")[0].strip()


def check() -> int:
    found = commands()
    problems: list[str] = []
    if len(found) != 2:
        print(f"quickstart: expected two commands in the Quick start, found {len(found)}")
        return 1
    first, second = found
    build = packages(first)
    print(f"quickstart: the first command installs {' '.join(build)}")

    for name in forbidden(build):
        problems.append(f"the first command installs {name}, which only the tests need")
    pulled = simulated_install(build) if build else []
    if pulled is not None:
        print(f"quickstart: on an empty machine that is {len(pulled)} packages (apt-get install --simulate)")
        for name in forbidden([p for p in pulled if p not in build]):
            problems.append(f"the first command pulls in {name}, which only the tests need")

    providers, pkgconfig = linked_libraries()
    for name in providers + ["pkg-config"]:
        if name not in build:
            problems.append(f"the first command does not install {name}, which Isobar needs to build")
    for name in pkgconfig:
        owner = owner_of_pc(name)
        if owner is None:
            problems.append(f"pkg-config cannot find {name} (Package.swift's pkgConfig), or no package owns it")
        elif owner.split(":")[0] not in build:
            problems.append(f"{name}.pc comes with {owner}, which the first command does not install")
    print(f"quickstart: Isobar links {', '.join(pkgconfig)} (pkg-config) and the providers {', '.join(providers)}")
    if "swift run isobar build" not in first:
        problems.append("the first command does not build the demo (swift run isobar build)")

    tests = packages(second)
    print(f"quickstart: the second command installs {' '.join(tests)}")
    for needed in ["chromium", "chromium-driver", "openssh-server"]:
        if needed not in tests:
            problems.append(f"the second command does not install {needed}")
    if not any(re.match(r"^(default-jre|openjdk-).*", name) for name in tests):
        problems.append("the second command installs no Java runtime (the Nu HTML checker needs one)")
    for step in ["pip install -q -r Tests/browser/requirements.txt", "Tests/run.sh"]:
        if step not in second:
            problems.append(f"the second command does not run {step}")
    # Tests/run.sh runs every suite unless told one: swift test, the browser and install tests.
    with open(os.path.join(os.path.dirname(__file__), "..", "run.sh"), encoding="utf-8") as runner:
        if "swift browser install" not in runner.read():
            problems.append("Tests/run.sh does not run swift, browser and install by default")

    for problem in problems:
        print(f"quickstart: {problem}", file=sys.stderr)
    if problems:
        return 1
    print("quickstart: the first command installs only what Isobar needs; the second, the test tools")
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["command"] and len(argv) == 2:
        print(command(int(argv[1])))
    elif argv[:1] == ["packages"] and len(argv) == 2:
        print(" ".join(packages(command(int(argv[1])))))
    elif argv == ["check"]:
        return check()
    else:
        print(__doc__, file=sys.stderr)
        return 64
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
