"""The client's one exponential backoff (reconnects, metadata, retries, coordinators)."""

from kafkacodec._random import rng

__all__ = ["backoff"]

# past 2**30 times the base every cap is reached; a bigger exponent would only risk overflow
_MAX_DOUBLINGS = 30


def backoff(base: float, cap: float, attempt: int, jitter: float = 0.0) -> float:
    """`base` doubled per attempt after the first (attempt 0 and 1 give `base`), at most `cap`,
    spread by ±`jitter` (a fraction) so that clients do not retry in step."""
    pause = min(cap, base * (1 << min(max(attempt - 1, 0), _MAX_DOUBLINGS)))
    if jitter:
        pause *= rng.uniform(1.0 - jitter, 1.0 + jitter)
    return pause
