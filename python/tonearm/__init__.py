"""Tonearm for Python: HTTP record/replay through the `tonearm serve` binary this package ships.

    import requests, tonearm

    with tonearm.serve(cassette="cassettes/users.json", mode="missing", hosts=["api.example.com"]) as server:
        requests.get(server.base_url("api.example.com") + "/v1/users")

The pytest plugin (`tonearm.pytest_plugin`, loaded by pytest automatically) gives each test a server
with its own cassette: see README.md, "From other languages".
"""

from importlib import metadata as _metadata

from ._binary import find_binary
from ._errors import TonearmError
from ._server import MODES, STRATEGIES, Server, serve

try:
    __version__ = _metadata.version("tonearm")
except _metadata.PackageNotFoundError:  # imported from a source tree, not installed
    __version__ = "0+unknown"

__all__ = ["MODES", "STRATEGIES", "Server", "TonearmError", "find_binary", "serve", "__version__"]
