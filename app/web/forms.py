"""Reading the site's own forms: every field is typed text."""

from __future__ import annotations

from fastapi import Request
from starlette.datastructures import UploadFile

from app.api.deps import same_origin
from app.table.errors import BadRequest, Forbidden


def refuse_cross_site(request: Request) -> None:
    """Refuse form posts that a browser sent from another site (CSRF)."""
    if not same_origin(request):
        raise Forbidden("This form was sent from another site, so it was refused.")


async def text_form(request: Request) -> dict[str, str]:
    """The form's fields as text. A file where text belongs (a hand-made multipart post)
    is refused with a sentence rather than failing somewhere later; of a repeated field
    the last value counts, as a browser sends one."""
    form = await request.form()
    fields: dict[str, str] = {}
    for key, value in form.multi_items():
        if isinstance(value, UploadFile):
            await form.close()
            raise BadRequest(f"The field '{key[:40]}' must be typed text, not a file.")
        fields[key] = value
    return fields
