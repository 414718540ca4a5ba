"""Which Web Push endpoints the server may POST to, and the address it then connects to.

A push subscription's endpoint is a URL a browser (or an attacker) gave us, and the server sends
requests there: a server-side request forgery waiting to happen. So an endpoint is checked as
the HTTP client will use it, twice (when subscribing, and again just before every send):

1. Its text: `https://host[:443]/path`, in printable ASCII with no backslash, whitespace, userinfo
   (`@`) or `%` before the path, and a host of plain DNS labels. What Python's `urlsplit`, urllib3's
   `parse_url` (what `requests` connects with) and this module read must be the same host.
2. Its host: one of `settings.PUSH_SERVICES` or a subdomain of one (matched on a label boundary).
3. Its addresses: every address the name resolves to is a public unicast one (no loopback,
   private, link-local, CGNAT, multicast, reserved or documentation range, IPv4 or IPv6, an IPv4
   address hidden in IPv6 included).

The send then connects to the address that passed (see `pinned_session`), never resolving the
name again, so a DNS answer that changes in between (DNS rebinding) cannot redirect it.

An entry of PUSH_SERVICES with a scheme (`http://127.0.0.1:8001`) names one exact origin that an
operator trusts, a local fake push service: its endpoints skip the host and address checks.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass
from socket import getaddrinfo  # module-level so tests can replace DNS (a third party) alone
from urllib.parse import urlsplit

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from urllib3.util import parse_url

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

# The whole URL: https, a host of DNS labels, port 443 or none, then a path (and query) of
# printable ASCII without backslash, fragment or spaces. Anything else is refused as a whole.
_URL = re.compile(
    r"(?P<scheme>https|http)://(?P<host>[A-Za-z0-9.-]{1,253})(?::(?P<port>[0-9]{1,5}))?"
    r"(?P<path>/[!-~]*)?",
    re.ASCII,
)
_LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?", re.ASCII)
# Ranges `is_global` misses on some Python versions, and those that carry another address.
_BLOCKED = [
    ipaddress.ip_network(net)
    for net in (
        "0.0.0.0/8",
        "100.64.0.0/10",  # carrier-grade NAT: often reaches internal hosts
        "192.0.0.0/24",
        "192.88.99.0/24",  # 6to4 relay anycast
        "198.18.0.0/15",
        "240.0.0.0/4",
        "64:ff9b:1::/48",
        "100::/64",
        "2001::/23",
        "2001:db8::/32",
        "5f00::/16",
        "3fff::/20",
        "fc00::/7",
        "fec0::/10",
    )
]
_NAT64 = ipaddress.ip_network("64:ff9b::/96")  # the last 32 bits are an IPv4 address


class EndpointRefused(ValueError):
    """The endpoint may not be used; `str()` says why, in words a player can read."""


@dataclass(frozen=True)
class Endpoint:
    url: str
    scheme: str
    host: str
    port: int
    trusted: bool  # an origin the operator listed as it is: no address check


def check(url: str) -> Endpoint:
    """The endpoint as the HTTP client will connect to it, or EndpointRefused."""
    match = _URL.fullmatch(url) if isinstance(url, str) else None
    if match is None or "\\" in url:
        raise EndpointRefused("Not a plain https:// address of a push service.")
    scheme, host = match["scheme"], match["host"].lower()
    port = int(match["port"]) if match["port"] else (443 if scheme == "https" else 80)
    _same_for_every_parser(url, scheme, host, int(match["port"]) if match["port"] else None)
    if _trusted_origin(scheme, host, port):
        return Endpoint(url, scheme, host, port, trusted=True)
    if scheme != "https":
        raise EndpointRefused("A push service is reached over https only.")
    if port != 443:
        raise EndpointRefused("A push service is reached on port 443 only.")
    labels = host.split(".")
    if len(labels) < 2 or not all(_LABEL.fullmatch(label) for label in labels):
        raise EndpointRefused("Not the host name of a push service.")
    if not any(_within(host, entry) for entry in _push_hosts()):
        raise EndpointRefused("Not the address of a known push service.")
    return Endpoint(url, scheme, host, port, trusted=False)


def resolve(endpoint: Endpoint) -> Address:
    """The address to connect to: the first the name resolves to, once every one is public.
    EndpointRefused if one is internal; OSError (socket.gaierror) if the name does not resolve."""
    answers = getaddrinfo(endpoint.host, endpoint.port, type=socket.SOCK_STREAM)
    addresses = [ipaddress.ip_address(info[4][0].split("%")[0]) for info in answers]
    if not addresses:
        raise socket.gaierror(f"{endpoint.host} has no address")
    if not endpoint.trusted:
        for address in addresses:
            if not public(address):
                raise EndpointRefused("That push service resolves to an internal address.")
    return addresses[0]


def public(address: Address) -> bool:
    """Whether the server may connect to `address`: a global unicast address, also when it is
    an IPv4 address written as IPv6 (mapped, 6to4, Teredo, NAT64)."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = [address.ipv4_mapped, address.sixtofour, *(address.teredo or ())]
        if address in _NAT64:
            embedded.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
        if address.ipv4_mapped is not None:
            return public(address.ipv4_mapped)
        if any(v4 is not None and not public(v4) for v4 in embedded):
            return False
        if address.is_site_local:
            return False
    return (
        address.is_global
        and not address.is_multicast
        and not address.is_reserved
        and not address.is_loopback
        and not address.is_link_local
        and not address.is_unspecified
        and not address.is_private
        and not any(address in net for net in _BLOCKED if net.version == address.version)
    )


def pinned_session(endpoint: Endpoint, address: Address) -> requests.Session:
    """A requests session that sends to `endpoint` only, connected to `address` (the host name
    still goes in the Host header, the TLS SNI and the certificate check). No redirects, no
    proxies or .netrc from the environment."""
    session = _NoRedirects()
    session.trust_env = False
    session.mount("https://", _PinnedAdapter(endpoint, address))
    session.mount("http://", _PinnedAdapter(endpoint, address))
    return session


# --- internals ------------------------------------------------------------------------------


def _push_hosts() -> list[str]:
    return [entry.lower().strip(".") for entry in settings.PUSH_SERVICES if "://" not in entry]


def _within(host: str, suffix: str) -> bool:
    return bool(suffix) and (host == suffix or host.endswith("." + suffix))


def _trusted_origin(scheme: str, host: str, port: int) -> bool:
    for entry in settings.PUSH_SERVICES:
        if "://" not in entry:
            continue
        parts = urlsplit(entry.rstrip("/"))
        default = 443 if parts.scheme == "https" else 80
        if (parts.scheme, parts.hostname, parts.port or default) == (scheme, host, port):
            return True
    return False


def _same_for_every_parser(url: str, scheme: str, host: str, port: int | None) -> None:
    """Refuse a URL that Python's parser (what requests connects with) or urllib3's (what it
    prepares the request with) reads with another scheme, host, port or with a userinfo."""
    try:
        split, parsed = urlsplit(url), parse_url(url)
        readings = {
            (split.scheme, split.hostname, split.port, split.username),
            (parsed.scheme, parsed.host, parsed.port, parsed.auth),
        }
    except ValueError as exc:
        raise EndpointRefused("Not a plain https:// address of a push service.") from exc
    if readings != {(scheme, host, port, None)}:
        raise EndpointRefused("Not a plain https:// address of a push service.")


class _NoRedirects(requests.Session):
    def send(self, request, **kwargs):
        kwargs["allow_redirects"] = False  # a redirect answer is a failure, never followed
        return super().send(request, **kwargs)


class _PinnedAdapter(HTTPAdapter):
    """Connects to the checked address instead of resolving the URL's host again (the same
    technique as the requests-hardened package, with this module's stricter address check)."""

    def __init__(self, endpoint: Endpoint, address: Address):
        super().__init__(max_retries=0)
        self.endpoint, self.address = endpoint, address

    def build_connection_pool_key_attributes(self, request, verify, cert=None):
        host_params, pool_kwargs = super().build_connection_pool_key_attributes(
            request, verify, cert
        )
        if (host_params["scheme"], host_params["host"]) != (
            self.endpoint.scheme,
            self.endpoint.host,
        ) or (host_params["port"] or self.endpoint.port) != self.endpoint.port:
            raise requests.exceptions.InvalidURL("Not the endpoint that was checked.")
        if host_params["scheme"] == "https":
            pool_kwargs["server_hostname"] = self.endpoint.host  # SNI
            pool_kwargs["assert_hostname"] = self.endpoint.host  # the certificate's name
        host_params["host"] = str(self.address)
        host_params["port"] = self.endpoint.port
        return host_params, pool_kwargs

    def add_headers(self, request, **kwargs):
        default = 443 if self.endpoint.scheme == "https" else 80
        port = "" if self.endpoint.port == default else f":{self.endpoint.port}"
        request.headers["Host"] = self.endpoint.host + port
