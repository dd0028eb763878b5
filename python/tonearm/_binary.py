"""Finding the `tonearm` executable the wheel installed.

The wheel ships the binary the way ruff and uv ship theirs: as a script of the distribution
(`tonearm-VERSION.data/scripts/tonearm`), which the installer puts in the environment's `bin/`
directory, so the command is on PATH in an activated virtual environment and Python finds it beside the
interpreter without one.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig

from ._errors import TonearmError

#: Names the environment variable that, when set, points at the executable to run instead.
BINARY_VARIABLE = "TONEARM_BINARY"


def _candidates() -> list[str]:
    """Where the executable may be, in the order they are tried."""
    name = "tonearm.exe" if sys.platform == "win32" else "tonearm"
    places = [os.path.join(sysconfig.get_path("scripts"), name)]
    # `pip install --user` puts scripts in the user scheme's folder instead.
    user_scheme = f"{os.name}_user"
    if user_scheme in sysconfig.get_scheme_names():
        places.append(os.path.join(sysconfig.get_path("scripts", user_scheme), name))
    # The interpreter's own folder: a virtual environment used without activating it.
    places.append(os.path.join(os.path.dirname(sys.executable), name))
    found = shutil.which(name)
    if found:
        places.append(found)
    return places


def find_binary() -> str:
    """The path of the `tonearm` executable to run.

    `TONEARM_BINARY` wins when set (a locally built binary, e.g. `.build/debug/tonearm`); otherwise the
    one the wheel installed, then one on PATH.
    """
    override = os.environ.get(BINARY_VARIABLE)
    if override:
        if os.access(override, os.X_OK):
            return override
        raise TonearmError(f"{BINARY_VARIABLE}={override} is not an executable file")
    tried = _candidates()
    for place in tried:
        if os.path.isfile(place) and os.access(place, os.X_OK):
            return place
    raise TonearmError(
        "the tonearm executable was not found; looked in " + ", ".join(dict.fromkeys(tried))
        + f" (install the tonearm wheel, or set {BINARY_VARIABLE})"
    )
