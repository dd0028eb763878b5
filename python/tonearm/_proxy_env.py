"""The environment that sends a process's HTTP clients through a `tonearm serve --intercept-https`:
`HTTP(S)_PROXY`, `NO_PROXY` without the proxied hosts, and the CA through the variables HTTP libraries
read. Set for one test and put back exactly as it was."""

from __future__ import annotations

import ipaddress
import os
import ssl
from pathlib import Path
from typing import Iterable, Iterator, Mapping, MutableMapping, Optional
from contextlib import contextmanager

#: Both spellings: curl and urllib read the lower-case names first, requests and httpx either.
PROXY_VARIABLES = ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy")
NO_PROXY_VARIABLES = ("NO_PROXY", "no_proxy")
#: requests (`REQUESTS_CA_BUNDLE`), OpenSSL and so Python's `ssl` default context (`SSL_CERT_FILE`:
#: urllib.request, aiohttp, urllib3, httpx), curl and pycurl (`CURL_CA_BUNDLE`).
CA_VARIABLES = ("REQUESTS_CA_BUNDLE", "SSL_CERT_FILE", "CURL_CA_BUNDLE")
#: Every variable the transparent mode sets, and so puts back.
VARIABLES = PROXY_VARIABLES + NO_PROXY_VARIABLES + CA_VARIABLES

#: Loopback names kept off the proxy unless a proxied host is one of them: the test's own local servers
#: (and the control calls to Tonearm) go straight to them.
LOOPBACK = ("localhost", "127.0.0.1", "::1")


def host_name(host: str) -> str:
    """The name of a marker host: `api.example.com` of `api.example.com`, `https://api.example.com:8443`
    or `http://127.0.0.1:9000`; brackets off an IPv6 address."""
    rest = host.split("://", 1)[1] if "://" in host else host
    rest = rest.strip("/")
    if rest.startswith("["):
        return rest[1:rest.index("]")].lower() if "]" in rest else rest.lower()
    return rest.rsplit(":", 1)[0].lower() if rest.count(":") == 1 else rest.lower()


def _bypasses(entry: str, name: str) -> bool:
    """Whether a `NO_PROXY` entry would keep requests to `name` off the proxy in some library."""
    entry = entry.strip().lower()
    if not entry:
        return False
    if entry == "*":
        return True
    if "/" in entry:
        try:
            return ipaddress.ip_address(name) in ipaddress.ip_network(entry, strict=False)
        except ValueError:
            return False
    if entry.startswith("[") and "]" in entry:
        entry = entry[1:entry.index("]")]
    elif entry.count(":") == 1:
        entry = entry.rsplit(":", 1)[0]
    entry = entry.lstrip("*").lstrip(".")
    return bool(entry) and (name == entry or name.endswith("." + entry))


def no_proxy(current: Optional[str], hosts: Iterable[str]) -> str:
    """`current` (a `NO_PROXY` value) without the entries that would keep `hosts` off the proxy, plus
    the loopback names that are not among `hosts`."""
    names = {host_name(host) for host in hosts}
    entries = [entry.strip() for entry in (current or "").split(",") if entry.strip()]
    kept = [entry for entry in entries if not any(_bypasses(entry, name) for name in names)]
    for loopback in LOOPBACK:
        if loopback not in names and loopback not in kept:
            kept.append(loopback)
    return ",".join(kept)


def trust_bundle(ca_certificate: Path, folder: Path) -> Path:
    """A PEM file in `folder` holding Tonearm's CA and the certificates the system trusts, so hosts that
    `NO_PROXY` sends straight to the network still verify while the CA variables point here."""
    parts = [ca_certificate.read_text(encoding="ascii").strip()]
    for place in _system_bundles():
        try:
            parts.append(Path(place).read_text(encoding="utf-8", errors="replace").strip())
        except OSError:
            continue
        break
    bundle = folder / "tonearm-trust-bundle.pem"
    bundle.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return bundle


def _system_bundles() -> list[str]:
    places = []
    paths = ssl.get_default_verify_paths()
    for place in (paths.cafile, paths.openssl_cafile):
        if place:
            places.append(place)
    try:
        import certifi  # requests' own bundle, when installed
        places.append(certifi.where())
    except ImportError:
        pass
    return [place for place in places if os.path.isfile(place)]


def proxy_environment(proxy_url: str, hosts: Iterable[str], bundle: Path,
                      environ: Mapping[str, str]) -> dict[str, str]:
    """The variables to set: both spellings of the proxies and of `NO_PROXY`, and the CA variables."""
    hosts = list(hosts)
    current = environ.get("no_proxy", environ.get("NO_PROXY"))
    values = {name: proxy_url for name in PROXY_VARIABLES}
    excluded = no_proxy(current, hosts)
    values.update({name: excluded for name in NO_PROXY_VARIABLES})
    values.update({name: str(bundle) for name in CA_VARIABLES})
    return values


@contextmanager
def applied(values: Mapping[str, str], environ: MutableMapping[str, str] = os.environ) -> Iterator[None]:
    """Sets `values` in `environ` for the block, then puts every variable back as it was: its old value,
    or unset when it was unset, whatever the block did to it and however it ended."""
    saved = {name: environ.get(name) for name in values}
    try:
        environ.update(values)
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                environ.pop(name, None)
            else:
                environ[name] = value
