"""Run the shell blocks of some pages, as the docs walk does, and print what each
printed: the text for a block's ``text title="Output"``, or, where the page shows
one, whether it matches (tests/docs_prose.py says how).  For writing and mending
pages; tests/test_docs_walk.py is the test.

    python tests/docs_outputs.py docs/deciding.md [docs/methods.md ...]

The blocks run in order in one scratch folder holding a copy of ``instances/`` and
``bench/``; a block that reads a file an earlier page wrote needs that page too.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from docs_blocks import SHELL, blocks
from docs_prose import output_mismatch
from test_docs_walk import _environment, _scratch


def main(pages: list[str]) -> int:
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = _scratch(Path(tmp))
        env = _environment()
        for page in pages:
            for block in blocks(page):
                if block.lang not in SHELL or block.kind != "run":
                    continue
                result = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", block.code],
                                        cwd=folder, env=env, capture_output=True, text=True)
                print(f"=== {block}: exit {result.returncode}")
                if result.returncode != 0:
                    failed += 1
                    print(result.stderr[-2000:], end="")
                elif block.output is None:
                    print(result.stdout, end="")
                else:
                    diff = output_mismatch(block.output, result.stdout)
                    failed += diff is not None
                    print("the shown output matches" if diff is None else diff)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
