"""The exceptions this library raises: one class per Mailroom error name, the client's own for failures that got
no answer (network_error, timeout), and the webhook verifier's WebhookVerificationError."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Type

from .types import ErrorDetail


class MailroomError(Exception):
    """A failed call. Branch on ``name`` (the server's closed set, or ``network_error`` / ``timeout``).

    ``status_code`` is None when no HTTP answer came; ``retry_after`` is the server's ``Retry-After`` in seconds
    (on 429, sometimes 503), else None; ``details`` lists the problems of a ``validation_error``.
    """

    default_name = "unexpected_response"

    def __init__(
        self,
        message: str,
        *,
        name: Optional[str] = None,
        status_code: Optional[int] = None,
        details: Optional[List[ErrorDetail]] = None,
        retry_after: Optional[float] = None,
        error: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        super().__init__(message)
        self.name: str = name or self.default_name
        self.status_code: Optional[int] = status_code
        self.message: str = message
        self.details: List[ErrorDetail] = list(details or [])
        self.retry_after: Optional[float] = retry_after
        # The HTTP reason phrase the server put in the body's "error" field.
        self.error: Optional[str] = error
        # The server's x-request-id: quote it when asking an operator to look at the logs.
        self.request_id: Optional[str] = request_id
        self.headers: Dict[str, str] = dict(headers or {})

    def __str__(self) -> str:
        status = f" {self.status_code}" if self.status_code else ""
        text = f"{self.name}{status}: {self.message}"
        if self.details:
            text += " (" + "; ".join(f"{d.get('path', '')}: {d.get('message', '')}" for d in self.details) + ")"
        return text

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, status_code={self.status_code!r}, message={self.message!r})"


class ValidationError(MailroomError):
    default_name = "validation_error"


class InvalidIdempotencyKeyError(MailroomError):
    default_name = "invalid_idempotency_key"


class UnauthorizedError(MailroomError):
    default_name = "unauthorized"


class InsufficientScopeError(MailroomError):
    default_name = "insufficient_scope"


class NotFoundError(MailroomError):
    default_name = "not_found"


class MethodNotAllowedError(MailroomError):
    default_name = "method_not_allowed"


class InvalidIdempotentRequestError(MailroomError):
    default_name = "invalid_idempotent_request"


class ConcurrentIdempotentRequestsError(MailroomError):
    default_name = "concurrent_idempotent_requests"


class ConflictError(MailroomError):
    default_name = "conflict"


class PayloadTooLargeError(MailroomError):
    default_name = "payload_too_large"


class DomainNotVerifiedError(MailroomError):
    default_name = "domain_not_verified"


class RateLimitExceededError(MailroomError):
    default_name = "rate_limit_exceeded"


class DailyQuotaExceededError(MailroomError):
    """The organisation's or the key's messages for this UTC day are used up; ``retry_after`` is the seconds to
    00:00 UTC, when the count starts again. Not a ``RateLimitExceededError``: waiting a moment does not help."""

    default_name = "daily_quota_exceeded"


class GoneError(MailroomError):
    """Retention removed the email's content (raw message, bodies, attachments); its record remains."""

    default_name = "gone"


class InternalServerError(MailroomError):
    default_name = "internal_error"


class ServiceUnavailableError(MailroomError):
    default_name = "service_unavailable"


class NetworkError(MailroomError):
    """No answer: connection refused or reset, DNS failure, a broken TLS handshake."""

    default_name = "network_error"


class RequestTimeoutError(NetworkError):
    """No answer within the client's timeout. A subclass of NetworkError: both are retried the same way."""

    default_name = "timeout"


ERROR_CLASSES: Dict[str, Type[MailroomError]] = {
    cls.default_name: cls
    for cls in (
        ValidationError,
        InvalidIdempotencyKeyError,
        UnauthorizedError,
        InsufficientScopeError,
        NotFoundError,
        MethodNotAllowedError,
        InvalidIdempotentRequestError,
        ConcurrentIdempotentRequestsError,
        ConflictError,
        PayloadTooLargeError,
        DomainNotVerifiedError,
        RateLimitExceededError,
        DailyQuotaExceededError,
        GoneError,
        InternalServerError,
        ServiceUnavailableError,
        NetworkError,
        RequestTimeoutError,
    )
}

# An answer without Mailroom's error body (a proxy's 502 page, say) still gets the class its status implies, so
# callers can rely on the class even when something in front of the server answered.
_NAME_BY_STATUS: Dict[int, str] = {
    400: "validation_error",
    401: "unauthorized",
    403: "insufficient_scope",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    410: "gone",
    413: "payload_too_large",
    422: "domain_not_verified",
    429: "rate_limit_exceeded",
    500: "internal_error",
    502: "service_unavailable",
    503: "service_unavailable",
    504: "service_unavailable",
}


def error_from_response(
    status: int,
    body: Any,
    *,
    retry_after: Optional[float],
    request_id: Optional[str],
    headers: Mapping[str, str],
) -> MailroomError:
    """The exception for an error answer, from Mailroom's body when it is one, else from the status alone."""
    if isinstance(body, dict) and isinstance(body.get("name"), str):
        name: str = body["name"]
        message = str(body.get("message") or body.get("error") or f"HTTP {status}")
        details = body.get("details") if isinstance(body.get("details"), list) else None
        reason = body.get("error") if isinstance(body.get("error"), str) else None
    else:
        name = _NAME_BY_STATUS.get(status, "internal_error" if status >= 500 else MailroomError.default_name)
        message = f"HTTP {status}" + (f": {body.strip()[:200]}" if isinstance(body, str) and body.strip() else "")
        details = None
        reason = None
    cls = ERROR_CLASSES.get(name, MailroomError)
    return cls(
        message,
        name=name,
        status_code=status,
        details=details,
        retry_after=retry_after,
        error=reason,
        request_id=request_id,
        headers=headers,
    )


class WebhookVerificationError(Exception):
    """A webhook request that must not be trusted: a missing header, a stale timestamp or no matching signature.

    Not a MailroomError on purpose: it is raised by your webhook handler, not by a call to the API, and an
    ``except MailroomError`` around API calls should not swallow it.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
