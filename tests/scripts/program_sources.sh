#!/usr/bin/env bash
# No program compiles or includes a file of another program's folder: code that two programs share
# lives in a library (netlib/, labs/common, tools/common). Reads the manifest the build writes
# (cmake/NetlabPrograms.cmake: program_sources.txt, each program's real sources and include
# folders) and every program folder's #include lines.
#   bash tests/scripts/program_sources.sh SOURCE_DIR BIN_DIR
set -euo pipefail
exec /usr/bin/python3 - "$1" "$2" <<'PY'
import os, re, sys
source_dir, bin_dir = (os.path.realpath(a) for a in sys.argv[1:3])
build_dir = os.path.dirname(bin_dir)
manifest = os.path.join(build_dir, "program_sources.txt")
if not os.path.exists(manifest):
    sys.exit(f"program_sources: {manifest} is missing (configure the build first)")

programs, current = [], None
for line in open(manifest):
    key, _, value = line.rstrip("\n").partition(" ")
    if key == "program":
        current = {"name": value}
        programs.append(current)
    elif current is not None:
        current[key] = [v for v in value.split("|") if v] if key in ("sources", "includes") else value
if not programs:
    sys.exit("program_sources: the manifest names no program")

def inside(path, folder):
    return os.path.commonpath([path, folder]) == folder

shared = [os.path.join(source_dir, d) for d in ("netlib", "labs/common", "tools/common")]
# The shared libraries' include folders are the area roots ("common/report.hpp"); an #include of
# another program's folder through them is caught by the #include check below.
area_roots = [os.path.join(source_dir, d) for d in ("labs", "tools")]
folders = {p["name"]: os.path.realpath(p["folder"]) for p in programs}
problems = []
for p in programs:
    own = folders[p["name"]]
    for s in p.get("sources", []):
        path = os.path.realpath(s if os.path.isabs(s) else os.path.join(own, s))
        if inside(path, own) or inside(path, build_dir):
            continue
        problems.append(f"{p['name']} compiles {os.path.relpath(path, source_dir)}, which is not in its folder "
                        f"{os.path.relpath(own, source_dir)}")
    for inc in sorted(set(p.get("includes", []))):
        path = os.path.realpath(inc)
        if not inside(path, source_dir):  # system and third-party folders
            continue
        if inside(path, own) or inside(path, build_dir) or any(inside(path, s) for s in shared) or path in area_roots:
            continue
        problems.append(f"{p['name']} has the include folder {os.path.relpath(path, source_dir)}")
    # Quoted includes that reach into another program's folder.
    others = {os.path.basename(f) for n, f in folders.items() if f != own and os.path.dirname(f) == os.path.dirname(own)}
    for root, _, files in os.walk(own):
        for f in files:
            if not f.endswith((".cpp", ".hpp")):
                continue
            path = os.path.join(root, f)
            for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
                m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
                if not m:
                    continue
                target = m.group(1)
                first = target.split("/", 1)[0]
                resolved = os.path.realpath(os.path.join(root, target))
                if target.startswith("..") and not inside(resolved, own):
                    problems.append(f"{os.path.relpath(path, source_dir)}:{n} includes {target}, outside its program's folder")
                elif "/" in target and first in others:
                    problems.append(f"{os.path.relpath(path, source_dir)}:{n} includes {target}, a file of another program")
for line in problems:
    print(line)
print(f"program_sources: {len(programs)} programs checked, {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
PY
