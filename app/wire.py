"""Views on the wire: fast JSON for the API and the websocket alike (they go out once per
seat per change). Below both, so neither transport imports the other."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi.responses import Response


# Like the json module, write int dict keys as strings (some views key things by seat).
OPTIONS = orjson.OPT_NON_STR_KEYS


def encode(value: Any) -> str:
    return orjson.dumps(value, option=OPTIONS).decode()


class JSONView(Response):
    """A view dict sent as JSON without FastAPI walking it through jsonable_encoder."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=OPTIONS)
