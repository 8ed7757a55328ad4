"""atheris fuzz target for the config readers: `anchors.toml`, `pyproject.toml`'s
`[tool.anchors]` and the `ANCHORS_*` environment. Any bytes may be refused with one
UsageError; nothing else may escape, and what loads is a Settings.

    pip install '.[fuzz]' && python fuzz/fuzz_config.py -max_total_time=60 -max_len=1048576
"""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import fields
from pathlib import Path

import atheris

with atheris.instrument_imports():
    from anchors.config import ENV, Settings, load_settings
    from anchors.errors import UsageError

ROOT = Path(tempfile.mkdtemp(prefix="fuzz-config-"))
(ROOT / ".git").mkdir()  # the repository the config files belong to
NAMES = ("anchors.toml", "pyproject.toml")
VARIABLES = sorted(ENV.values())
#: every setting's name, so a fuzzed value reaches each key's reader (`concurrency = …`)
KEYS = sorted(f.name for f in fields(Settings))


def one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    choice = fdp.ConsumeIntInRange(0, 3)
    for name in NAMES:
        (ROOT / name).unlink(missing_ok=True)
    env: dict[str, str] = {}
    if choice == 2:  # one variable of the environment, as a flag's value is read
        variable = VARIABLES[fdp.ConsumeIntInRange(0, len(VARIABLES) - 1)]
        env[variable] = fdp.ConsumeUnicodeNoSurrogates(4096).replace("\0", "")
    elif choice == 3:  # one known key, any TOML value
        key = KEYS[fdp.ConsumeIntInRange(0, len(KEYS) - 1)]
        value = fdp.ConsumeBytes(len(data))
        (ROOT / "anchors.toml").write_bytes(key.encode() + b" = " + value + b"\n")
    else:
        body = fdp.ConsumeBytes(len(data))
        (ROOT / NAMES[choice]).write_bytes(
            (b"[tool.anchors]\n" + body) if choice == 1 and fdp.ConsumeBool() else body
        )
    try:
        got = load_settings(ROOT / "registry.yaml", {}, env=env)
    except UsageError:
        return
    assert isinstance(got, Settings)


if __name__ == "__main__":
    os.environ.pop("ANCHORS_CONFIG", None)
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
