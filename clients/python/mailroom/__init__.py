"""Mailroom's Python client: ``Mailroom`` (the API, Resend's names), the typed errors, and the Standard Webhooks
verifier. Standard library only."""

from ._version import __version__
from .attachment import attachment
from .client import DEFAULT_BASE_URL, Mailroom
from .errors import (
    ConcurrentIdempotentRequestsError,
    ConflictError,
    DailyQuotaExceededError,
    DomainNotVerifiedError,
    GoneError,
    InsufficientScopeError,
    InternalServerError,
    InvalidIdempotencyKeyError,
    InvalidIdempotentRequestError,
    MailroomError,
    MethodNotAllowedError,
    NetworkError,
    NotFoundError,
    PayloadTooLargeError,
    RateLimitExceededError,
    RequestTimeoutError,
    ServiceUnavailableError,
    UnauthorizedError,
    ValidationError,
    WebhookVerificationError,
)
from .webhook import Webhook, verify_webhook

__all__ = [
    "__version__",
    "DEFAULT_BASE_URL",
    "Mailroom",
    "attachment",
    "Webhook",
    "verify_webhook",
    "MailroomError",
    "ValidationError",
    "InvalidIdempotencyKeyError",
    "UnauthorizedError",
    "InsufficientScopeError",
    "NotFoundError",
    "MethodNotAllowedError",
    "InvalidIdempotentRequestError",
    "ConcurrentIdempotentRequestsError",
    "ConflictError",
    "PayloadTooLargeError",
    "DomainNotVerifiedError",
    "RateLimitExceededError",
    "DailyQuotaExceededError",
    "GoneError",
    "InternalServerError",
    "ServiceUnavailableError",
    "NetworkError",
    "RequestTimeoutError",
    "WebhookVerificationError",
]
