"""The card room over HTTP: the FastAPI app (REST, OpenAPI at /openapi.json)."""

from .app import create_app

__all__ = ["create_app"]
