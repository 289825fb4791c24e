"""One-off HTTP calls for the tests, as ``httpx.get``/``httpx.post`` make them (a new client
and connection per call) but sharing one TLS context: httpx builds a context and reads the
whole CA bundle for every such call (~40 ms of CPU), which games played step by step over
HTTP paid hundreds of times. The servers under test speak plain HTTP on loopback; no
certificate is ever checked either way."""

from __future__ import annotations

import ssl
from typing import Any

import httpx

_TLS = ssl.create_default_context()


def request(method: str, url: str, **kwargs: Any) -> httpx.Response:
    kwargs.setdefault("verify", _TLS)
    return httpx.request(method, url, **kwargs)


def get(url: str, **kwargs: Any) -> httpx.Response:
    return request("GET", url, **kwargs)


def post(url: str, **kwargs: Any) -> httpx.Response:
    return request("POST", url, **kwargs)


def put(url: str, **kwargs: Any) -> httpx.Response:
    return request("PUT", url, **kwargs)
