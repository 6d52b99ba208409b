#!/usr/bin/env python3
# -*- coding: utf-8 -*-
# Copyright (c) 2024 Example Corp.
# Licensed under the MIT license.
"""Retry helpers for flaky network calls.

The module docstring stays at every level.
"""
from __future__ import annotations

import functools  # for wraps
import time
from typing import Callable, Generic, TypeVar

T = TypeVar("T")
URL_PATTERN = "https://example.com/#anchor"  # the '#' in the string is no comment
SQL = """
    SELECT id -- keep this line as is   
    FROM jobs   # not a comment either

    WHERE state = 'queued'
"""
retries = []  # type: list[int]


def retry(times: int = 3, delay: float = 0.5) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Retry the decorated call `times` times.

    Waits `delay` seconds between attempts.
    """

    def decorate(fn: Callable[..., T]) -> Callable[..., T]:
        # A nested function disappears with its parent's body.
        @functools.wraps(fn)
        def wrapper(*args, **kwargs) -> T:
            for attempt in range(times):
                try:
                    return fn(*args, **kwargs)
                except OSError:  # transient
                    time.sleep(delay * (attempt + 1))
            return fn(*args, **kwargs)

        return wrapper

    return decorate


class Backoff(Generic[T]):
    """Exponential backoff state."""

    factor: float = 2.0  # growth per attempt
    ceiling: float = 30.0

    def __init__(self, base: float, *, jitter: bool = False) -> None:
        self.base = base
        self.jitter = jitter
        self.attempt = 0



    @property
    def next_delay(self) -> float:
        r'''Delay before the next attempt, in seconds \d+.'''
        value = self.base * self.factor ** self.attempt
        return min(value, self.ceiling)

    @staticmethod
    def none() -> "Backoff[T]":
        return Backoff(0.0)

    async def wait(self) -> None:
        '''Sleeps, then counts the attempt.'''
        await _sleep(self.next_delay)
        self.attempt += 1


def _sleep(seconds: float) -> None: ...
