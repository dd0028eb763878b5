"""pytest-recording's conventions, read for Tonearm: where its cassettes are, and what its `vcr_config`
keys mean as `tonearm serve` options.

Written from pytest-recording 0.14's and vcrpy 9's behaviour (their source is the reference; nothing of
it is copied): the cassette of a test is `cassettes/<module>/<name>.yaml` beside the test file, `<name>`
being `<Class>.<test>` inside a class (the innermost class) and the test's name as pytest gives it
(parametrized ids included), with each of `<>?%*:|"'/\\` replaced by `-`; a name too long for one file
is cut and given the MD5 of the whole name, as pytest-recording does.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Optional, Sequence

#: The characters pytest-recording replaces by `-` in a cassette's name.
_FORBIDDEN = "<>?%*:|\"'/\\"

#: vcrpy's `match_on` when a configuration gives none.
VCRPY_DEFAULT_MATCH_ON = ("method", "scheme", "host", "port", "path", "query")

#: `vcr_config` keys Tonearm reads.
READ_KEYS = ("filter_headers", "filter_query_parameters", "match_on", "record_mode", "allow_playback_repeats")

#: `vcr_config` keys that keep something off the disk. Tonearm cannot do what these ask, so a test that
#: would record with one of them fails instead of writing what the user meant to filter.
UNHONOURED_FILTERS = ("filter_post_data_parameters", "before_record", "before_record_request",
                      "before_record_response")

try:
    _NAME_MAX = os.pathconf(".", "PC_NAME_MAX")
except (AttributeError, ValueError, OSError):
    _NAME_MAX = 255


def cassette_name(class_name: Optional[str], test_name: str) -> str:
    """The cassette name pytest-recording gives a test (without its `.yaml`)."""
    name = f"{class_name}.{test_name}" if class_name else test_name
    for character in _FORBIDDEN:
        name = name.replace(character, "-")
    suffix = ".yaml"
    if len(name) + len(suffix) > _NAME_MAX:
        digest = hashlib.md5(name.encode()).hexdigest()
        name = f"{name[: _NAME_MAX - len(suffix) - len(digest) - 3]}...{digest}"
    return name


def cassette_path(test_file: Path, class_name: Optional[str], test_name: str,
                  default_cassette: Optional[str] = None) -> Path:
    """`cassettes/<module>/<name>.yaml` beside `test_file`, as pytest-recording finds it; a
    `@pytest.mark.default_cassette("name")` gives the name instead."""
    name = default_cassette if default_cassette else cassette_name(class_name, test_name)
    if not name.endswith(".yaml"):
        name += ".yaml"
    return test_file.parent / "cassettes" / test_file.stem / name


@dataclass
class ServeOptions:
    """What a `vcr_config` means for `tonearm serve`, and what of it Tonearm does not do."""

    #: `tonearm serve` arguments (`--redact-header`, `--redact-query`, `--ignore-query`, `--match`).
    arguments: list[str] = field(default_factory=list)
    #: The config's `record_mode`, when it gives one.
    record_mode: Optional[str] = None
    #: `repeat` when `allow_playback_repeats` is true, `fifo` when it is false, `None` when not given.
    strategy: Optional[str] = None
    #: Keys (or parts of them) Tonearm does not read, each with why: for the one warning.
    ignored: list[str] = field(default_factory=list)
    #: Keys asking to keep something off the disk that Tonearm cannot honour.
    unhonoured_filters: list[str] = field(default_factory=list)


def _names(value: Any, key: str, ignored: list[str]) -> list[str]:
    """Names from a vcrpy filter list: `"name"` or `("name", replacement)` items."""
    names: list[str] = []
    for item in value or ():
        if isinstance(item, str):
            names.append(item)
        elif isinstance(item, (tuple, list)) and item and isinstance(item[0], str):
            names.append(item[0])
            if len(item) > 1 and item[1] is not None:
                ignored.append(f"{key} replacement for {item[0]!r} (Tonearm writes <redacted>)")
        else:
            ignored.append(f"{key} item {item!r} (expected a name or a (name, value) pair)")
    return names


def match_attributes(match_on: Sequence[Any], ignored: list[str]) -> str:
    """vcrpy's `match_on` as Tonearm's `--match` attributes (`method,url,query`); what has no equivalent
    is added to `ignored`."""
    names = [matcher if isinstance(matcher, str) else getattr(matcher, "__name__", repr(matcher))
             for matcher in match_on]
    attributes: list[str] = []
    origin = {"scheme", "host", "port"} & set(names)
    if "uri" in names or "url" in names:
        attributes += ["url", "query"]
    elif origin:
        # Tonearm's url is scheme, host, port and path together.
        attributes.append("url")
        if "path" not in names:
            ignored.append(f"match_on {', '.join(sorted(origin))} without path "
                           "(Tonearm's url attribute also compares the path)")
        elif origin != {"scheme", "host", "port"}:
            ignored.append(f"match_on {', '.join(sorted(origin))} without "
                           f"{', '.join(sorted({'scheme', 'host', 'port'} - origin))} "
                           "(Tonearm's url attribute compares scheme, host and port together)")
    elif "path" in names:
        attributes.append("path")
    for name in names:
        if name == "method":
            attributes.append("method")
        elif name == "query":
            attributes.append("query")
        elif name in ("body", "raw_body"):
            attributes.append("body")
        elif name not in ("uri", "url", "scheme", "host", "port", "path"):
            ignored.append(f"match_on {name} (no Tonearm equivalent)")
    return ",".join(dict.fromkeys(attributes))


def serve_options(config: Mapping[str, Any], yaml_cassette: bool) -> ServeOptions:
    """`config` (a `vcr_config`) as `tonearm serve` options. For a vcrpy cassette without `match_on`,
    vcrpy's default matching (method, scheme, host, port, path and query: not the body)."""
    options = ServeOptions()
    for name in _names(config.get("filter_headers"), "filter_headers", options.ignored):
        options.arguments += ["--redact-header", name]
    for name in _names(config.get("filter_query_parameters"), "filter_query_parameters", options.ignored):
        # vcrpy takes the parameter out of the request before matching and recording: Tonearm hides its
        # value in what it records, and leaves it out of the key (a vcrpy cassette has it not at all).
        options.arguments += ["--redact-query", name, "--ignore-query", name]
    match_on = config.get("match_on")
    if match_on is None and yaml_cassette:
        match_on = VCRPY_DEFAULT_MATCH_ON
    if match_on is not None:
        if isinstance(match_on, str):
            match_on = [match_on]
        attributes = match_attributes(list(match_on), options.ignored)
        if attributes:
            options.arguments += ["--match", attributes]
    if config.get("record_mode") is not None:
        options.record_mode = str(getattr(config["record_mode"], "value", config["record_mode"]))
    if "allow_playback_repeats" in config:
        options.strategy = "repeat" if config["allow_playback_repeats"] else "fifo"
    for key in sorted(config):
        if key in UNHONOURED_FILTERS and config[key]:
            options.unhonoured_filters.append(key)
            options.ignored.append(f"{key} (no recording while it is set)")
        elif key not in READ_KEYS:
            options.ignored.append(key)
    return options
