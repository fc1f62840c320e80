"""The error a refusal of the service raises."""

from typing import Optional


class SvcError(Exception):
    """A refusal of the service: the envelope's ``error`` code and ``message``, with the HTTP
    status, the request id (X-Request-Id) and, on a 429 or 503, the Retry-After in seconds."""

    def __init__(self, status: int, error: str, message: str,
                 request_id: Optional[str] = None, retry_after: Optional[float] = None) -> None:
        super().__init__(message)
        self.status = status
        #: bad_request, unauthorized, not_found, rate_limited, limit_reached, ...
        self.error = error
        self.message = message
        self.request_id = request_id
        self.retry_after = retry_after

    def __str__(self) -> str:
        s = f"{self.status} {self.error}: {self.message}"
        if self.request_id:
            s += f" (request {self.request_id})"
        return s
