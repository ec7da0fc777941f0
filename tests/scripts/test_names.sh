#!/usr/bin/env bash
# Every GoogleTest suite is named in CamelCase (docs/testing.md, "Names"), as GoogleTest's own
# documentation names them and as CTest shows them (AREA.Suite.Test): a suite named in snake_case
# is reported with its file and line. Reads every TEST, TEST_F and TEST_P under tests/.
#   bash tests/scripts/test_names.sh SOURCE_DIR BIN_DIR
set -euo pipefail
exec /usr/bin/python3 - "$1" <<'PY'
import os, re, sys
source_dir = sys.argv[1]
test_macro = re.compile(r"^\s*(?:TYPED_)?TEST(?:_F|_P)?\(\s*([A-Za-z0-9_]+)\s*,\s*([A-Za-z0-9_]+)")
suite_ok = re.compile(r"^[A-Z][A-Za-z0-9]*$")
problems, suites = [], set()
for root, dirs, files in os.walk(os.path.join(source_dir, "tests")):
    dirs.sort()
    for name in sorted(files):
        if not name.endswith((".cpp", ".hpp")):
            continue
        path = os.path.join(root, name)
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                m = test_macro.match(line)
                if not m:
                    continue
                suites.add(m.group(1))
                if not suite_ok.match(m.group(1)):
                    problems.append(f"{os.path.relpath(path, source_dir)}:{number}: suite {m.group(1)} is not CamelCase")
if not suites:
    sys.exit("test_names: no TEST macro found under tests/ (wrong source folder?)")
for p in problems:
    print(p)
print(f"test_names: {len(suites)} suites, {len(problems)} test(s) in a suite not named in CamelCase")
sys.exit(1 if problems else 0)
PY
