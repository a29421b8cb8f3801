"""CPU-heavy storage work (reading an import) off the event loop, in a worker process.

A thread would not do: the work is Python code, which holds the GIL, so the event loop and the
database thread wait for it each time they wake up. Measured with two 1 MiB imports read on
threads, each of the store's statements took 35-100 ms instead of well under one, and a roll
needs several. In a process the reading costs the bot only the pickling of its input and result
(about 10 ms for a 1 MiB import).

The pool starts on first use (spawned, not forked: the bot has threads running) and its workers
end with the bot. One worker: on a small machine the bot keeps the other core. A spawned worker
imports the main module again, as multiprocessing does: a script run by its path that uses the
store must keep its `if __name__ == "__main__":` guard, as bot.py does (`python -m` packages'
`__main__` is not imported again).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from storage.errors import StorageError

log = logging.getLogger("wire.storage")

WORKERS = 1
T = TypeVar("T")

_pool: ProcessPoolExecutor | None = None


def _workers() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context("spawn"))
    return _pool


async def run(func: Callable[..., T], /, *args: Any) -> T:
    """`func(*args)` in the worker process; `func`, the arguments and the result are pickled.

    Errors raised by `func` come back as they are. A worker that died (killed for memory, say)
    is replaced for the next call, and this one fails with a StorageError the user can read.
    """
    global _pool
    pool = _workers()
    try:
        return await asyncio.get_running_loop().run_in_executor(pool, func, *args)
    except BrokenProcessPool as error:
        log.error("A storage worker process died; starting a new one for the next call")
        if _pool is pool:
            _pool = None
        pool.shutdown(wait=False, cancel_futures=True)
        raise StorageError("The bot could not finish that work; try again.") from error
