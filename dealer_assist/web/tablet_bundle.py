"""What the table's tablet downloads to run the rules engine offline: the Pyodide
runtime (the npm ``pyodide`` package pinned in ``package-lock.json``, installed into
``node_modules/`` by ``make run``) and the engine bundle, a zip of this very checkout's pure
Python (:data:`PATTERNS`). No copy that can drift: the zip is built from the files the server
itself imports, once per process, and its SHA-256 is what the page tells the tablet to expect
(``static/engine-worker.js`` refuses to start on any other bytes).

The zip is deterministic: sorted names, a fixed timestamp and mode, and no compression (the
bytes of a deflated entry depend on the zlib that made them), so the same files make the same
bytes and the same hash in every process and on every machine behind a load balancer (the page
from one and the bundle from another agree).
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..config import PROJECT_ROOT

#: the files of the bundle, relative to the project root (``**`` is any depth)
PATTERNS = ("dealer_assist/__init__.py", "dealer_assist/rules/**/*.py",
            "dealer_assist/tablet/**/*.py",
            "dealer_assist/translations/*/LC_MESSAGES/messages.mo")
#: the files of Pyodide's core the tablet loads (no package of Pyodide's is needed)
PYODIDE_FILES = frozenset({"pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm",
                           "python_stdlib.zip", "pyodide-lock.json"})
#: the zip's timestamp for every entry (the earliest a zip can hold)
EPOCH = (1980, 1, 1, 0, 0, 0)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True, slots=True)
class Bundle:
    data: bytes
    hash: str  # SHA-256 of ``data``, hex
    names: tuple[str, ...]

    def meta(self, pyodide: str) -> dict[str, str | int]:
        """``GET /tablet/engine.json``."""
        return {"hash": self.hash, "files": len(self.names), "bytes": len(self.data),
                "pyodide": pyodide}


def engine_files(root: Path) -> list[str]:
    """The bundle's paths under ``root``, sorted (``__pycache__`` never)."""
    found = {p.relative_to(root).as_posix() for pattern in PATTERNS for p in root.glob(pattern)
             if p.is_file() and "__pycache__" not in p.parts}
    return sorted(found)


def build(root: Path) -> Bundle:
    """The zip of :func:`engine_files` under ``root``: same files, same bytes."""
    names = engine_files(root)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name in names:
            info = zipfile.ZipInfo(name, date_time=EPOCH)
            info.compress_type = zipfile.ZIP_STORED
            info.create_system = 3  # Unix, whatever the server runs on
            info.external_attr = 0o100644 << 16
            zf.writestr(info, (root / name).read_bytes())
    data = out.getvalue()
    return Bundle(data, sha256(data), tuple(names))


@cache
def _built(root: Path) -> Bundle:
    return build(root)


def current() -> Bundle:
    """This process's bundle (built on first use, then kept: the files a server imports do not
    change under it)."""
    return _built(PROJECT_ROOT)


def pyodide_dir(root: Path = PROJECT_ROOT) -> Path:
    return root / "node_modules" / "pyodide"


@cache
def pyodide_version(root: Path = PROJECT_ROOT) -> str:
    """The pinned version, from ``package-lock.json`` (what ``npm ci`` installs)."""
    lock = json.loads((root / "package-lock.json").read_text(encoding="utf-8"))
    return str(lock["packages"]["node_modules/pyodide"]["version"])


def pyodide_installed(root: Path = PROJECT_ROOT) -> bool:
    """``node_modules/pyodide`` holds the pinned version (``make run`` ran ``npm ci``)."""
    try:
        installed = json.loads((pyodide_dir(root) / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return bool(installed.get("version") == pyodide_version(root))

