"""Refusals the table raises; the transport maps each to its HTTP status."""

from __future__ import annotations


class TableError(Exception):
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadRequest(TableError):
    status = 422


class Unauthorized(TableError):
    status = 401


class Forbidden(TableError):
    status = 403


class NotFound(TableError):
    status = 404


class StaleVersion(TableError):
    status = 409


class NotOffered(TableError):
    status = 422


class RateLimited(TableError):
    status = 429
