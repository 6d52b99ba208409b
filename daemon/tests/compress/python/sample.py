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


# Codes and names, one per line.
CODES = {
    "a": 1,
    "b": 2,
    "c": 3,  # the third
    "d": 4,
    "e": 5,
    "f": 6,
    "g": 7,
    "h": 8,
    "i": 9,
    "j": 10,
    "k": 11,
    "l": 12,
    "m": 13,
    "n": 14,
    "o": 15,
    "p": 16,
    "q": 17,
    "r": 18,
    "s": 19,
    "t": 20,
    "u": 21}

NAMES = [
    "n0", "n1", "n2",
    "n3", "n4", "n5",
    "n6", "n7", "n8",
    "n9", "n10", "n11",
    "n12", "n13", "n14",
    "n15", "n16", "n17",
    "n18", "n19", "n20",
    "n21", "n22", "n23",
    "n24", "n25", "n26",
    "n27", "n28", "n29",
    "n30", "n31", "n32",
    "n33", "n34", "n35",
    "n36", "n37", "n38",
    "n39", "n40", "n41",
    "n42", "n43", "n44",
    "n45", "n46", "n47",
    "n48", "n49", "n50",
    "n51", "n52", "n53",
    "n54", "n55", "n56",
    "n57", "n58", "n59",
    "n60", "n61", "n62",
    "n63", "n64", "n65"]
