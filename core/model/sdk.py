"""The provider SDKs, where Unicum still uses them: the model list (`/model`) and the
`UNICUM_HTTP=sdk` fallback, which sends each request through the SDK's own HTTP client
(the way every request went before `core/model/http.py`; the bodies are the same bytes).

Nothing on a request's way imports this module unless the fallback is asked for: importing
`anthropic` costs about ten times what importing the HTTP client does."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from core.model.wire import FALLBACK_ENV

__all__ = ["FALLBACK_ENV", "SdkSender", "make_client", "stream_class"]


def make_client(package: str, base_url: str | None, api_key: str | None, timeout: float) -> Any:
    """An SDK client (`package`: "anthropic" or "openai") without its own retries (ours show
    a countdown); `timeout` is per read. Passing `api_key` keeps the SDK from reading
    ANTHROPIC_*/OPENAI_* credentials (Anthropic's sends it as `Authorization: Bearer`, which
    Zhipu's endpoint documents too)."""
    sdk = importlib.import_module(package)
    limits = sdk.Timeout(timeout, connect=min(timeout, 15.0))
    make = sdk.Anthropic if package == "anthropic" else sdk.OpenAI
    return make(api_key=api_key or "none", base_url=base_url, timeout=limits, max_retries=0)


class SdkSender:
    """Requests through an SDK client: its request built once (URL, headers without the
    length, extensions) and sent with each body by its HTTP client, its error classes and
    SSE parsing; the SDK's `post` where that request cannot be built."""

    def __init__(self, path: str, client: Any) -> None:
        self.path = path
        self.client = client
        self.package = type(client).__module__.partition(".")[0]
        self.errors = importlib.import_module(self.package)
        self.template = _built_template(path, client, self.package)

    @contextmanager
    def events(self, body: bytes) -> Iterator[Iterator[Any]]:
        with self._open(body) as stream:
            yield iter(stream)

    def _open(self, body: bytes) -> Any:
        client = self.client
        if self.template is None:
            return client.post(
                self.path,
                content=body,
                cast_to=object,
                options={"headers": {"content-type": "application/json"}},
                stream=True,
                stream_cls=stream_class(self.package),
            )
        import httpx2

        url, headers, extensions = self.template
        request = httpx2.Request(
            "POST", url, headers=headers, content=body, extensions=dict(extensions)
        )
        try:
            response = client._client.send(request, stream=True)
        except httpx2.TimeoutException as err:  # the SDK's own wrapping of transport errors
            raise self.errors.APITimeoutError(request=request) from err
        except Exception as err:
            raise self.errors.APIConnectionError(request=request) from err
        if response.is_error:
            response.read()
            raise client._make_status_error_from_response(response) from None
        return stream_class(self.package)(cast_to=object, response=response, client=client)


def _built_template(path: str, client: Any, package: str) -> tuple[Any, ...] | None:
    try:
        models = importlib.import_module(package + "._models")
        options = models.FinalRequestOptions.construct(
            method="post", url=path, headers={"content-type": "application/json"}
        )
        built = client._build_request(options)
        headers = [(k, v) for k, v in built.headers.raw if k.lower() != b"content-length"]
        template: tuple[Any, ...] | None = (built.url, headers, dict(built.extensions))
        client._client.send  # noqa: B018  (the HTTP client it sends with)
        client._make_status_error_from_response  # noqa: B018
    except (AttributeError, ImportError, TypeError, ValueError):
        template = None
    return template


@functools.cache
def stream_class(package: str) -> type:
    """The SDK's SSE stream for plain JSON events. OpenAI's reads the body to its end after
    `[DONE]` (the SDK stops there and closes the connection half-read, so every request
    would open a new one)."""
    sdk = importlib.import_module(package)
    if package == "anthropic":
        return sdk.Stream[object]

    class Drained(sdk.Stream[object]):
        def _iter_events(self):  # noqa: ANN202
            done = None
            for sse in super()._iter_events():
                if done is None and sse.data.startswith("[DONE]"):
                    done = sse
                elif done is None:
                    yield sse
            if done is not None:
                yield done

    return Drained
