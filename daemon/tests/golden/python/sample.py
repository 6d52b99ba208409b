"""Token-bucket rate limiting for outgoing HTTP requests."""
from __future__ import annotations

import enum
import logging
import time
from dataclasses import dataclass, field
from typing import Callable, Protocol, TypeAlias, TypeVar

__all__ = ["Bucket", "Policy", "RateLimiter", "Sink", "DEFAULT_RATE", "limit", "_default_clock"]

DEFAULT_RATE: float = 10.0
MAX_BURST = 100
logger = logging.getLogger(__name__)
_registry: dict[str, "RateLimiter"] = {}

Clock: TypeAlias = Callable[[], float]
T = TypeVar("T")
type Key = str | tuple[str, int]


class Policy(enum.Enum):
    BLOCK = "block"
    DROP = "drop"

    def describe(self) -> str:
        return f"policy {self.value}"


class Sink(Protocol):
    def emit(self, key: Key, delay: float) -> None: ...


@dataclass
class Bucket:
    capacity: int
    tokens: float = 0.0
    history: list[float] = field(default_factory=list)

    def refill(self, amount: float) -> None:
        self.tokens = min(self.capacity, self.tokens + amount)


class RateLimiter:
    """Hands out tokens at `rate` per second, `burst` at most."""

    WINDOW = 1.0

    def __init__(self, rate: float = DEFAULT_RATE, burst: int = MAX_BURST,
                 clock: Clock | None = None) -> None:
        self._rate = rate
        self._bucket = Bucket(capacity=burst, tokens=burst)
        self._clock = clock or _default_clock

    @property
    def rate(self) -> float:
        return self._rate

    @staticmethod
    def for_host(host: str) -> "RateLimiter":
        limiter = _registry.get(host)
        if limiter is None:
            limiter = _registry[host] = RateLimiter()
        return limiter

    async def acquire(self, key: Key, policy: Policy = Policy.BLOCK) -> bool:
        def wait_time(missing: float) -> float:
            return missing / self._rate

        now = self._clock()
        self._bucket.refill((now - self._last) * self._rate)
        if self._bucket.tokens >= 1:
            self._bucket.tokens -= 1
            return True
        if policy is Policy.DROP:
            return False
        time.sleep(wait_time(1 - self._bucket.tokens))
        return True

    def _reset(self) -> None:
        RETRIES = 3
        self._bucket.tokens = self._bucket.capacity


class _Noop:
    def acquire(self, key: Key) -> bool:
        return True


def _default_clock() -> float:
    return time.monotonic()


def limit(rate: float) -> Callable[[Callable], Callable]:
    limiter = RateLimiter(rate)

    def decorate(func: Callable) -> Callable:
        async def wrapper(*args, **kwargs):
            await limiter.acquire(func.__name__)
            return await func(*args, **kwargs)
        return wrapper
    return decorate
