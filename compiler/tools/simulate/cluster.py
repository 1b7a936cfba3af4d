"""The Ray cluster a simulation joins (`--address`).

The address is checked before anything starts: HOST:PORT (a cluster's
head), ray://HOST:PORT (Ray Client), or Ray's keywords `auto` and `local`;
anything else, an empty address included, is refused. Before Ray is asked
to join, the address's port is reached over TCP within CONNECT_TIMEOUT
seconds: Ray itself retries an address that answers nothing for minutes
(more than 400 s measured with ray 2.60, then still trying). A port that
answers but is no Ray cluster is given JOIN_TIMEOUT seconds: Ray joins in
a thread, which is abandoned if it has not joined by then. Every failure
to join is a `BadAddress` that says where and why, never an OSError
(which the command line takes for an output error).
"""

from __future__ import annotations

import logging
import socket
import threading
from typing import Any

from splendor_rules.compiler.tools.simulate.runner import SimulateError

CONNECT_TIMEOUT = 10.0  # seconds to reach the port of --address
JOIN_TIMEOUT = 60.0  # seconds for Ray to join the cluster once its port answers
KEYWORDS = ("auto", "local")  # Ray's own: the cluster started here by `ray start`, a new one
FORMS = "HOST:PORT, ray://HOST:PORT, auto or local"


class BadAddress(SimulateError):
    """An --address that names no Ray cluster, or one that cannot be joined."""


def check_address(address: str) -> tuple[str, int] | None:
    """The host and port that `address` names (None for Ray's keywords);
    BadAddress if it has none of the accepted forms."""
    if not address.strip():
        raise BadAddress(
            f"the address is empty: give {FORMS}, or leave --address out for a new "
            "local Ray instance"
        )
    if address in KEYWORDS:
        return None
    rest = address.removeprefix("ray://")
    host, colon, port = rest.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")  # an IPv6 literal: [::1]:6379
    if not colon or not host or "/" in rest or not port.isdigit() or not 0 < int(port) < 65536:
        shown = address if address.isprintable() else repr(address)
        raise BadAddress(f"{shown} is not a Ray address: give {FORMS}")
    return host, int(port)


def reach(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """BadAddress unless the port of `address` accepts a connection within
    `timeout` seconds (nothing to reach for Ray's keywords)."""
    where = check_address(address)
    if where is None:
        return
    try:
        with socket.create_connection(where, timeout=timeout):
            pass
    except TimeoutError as error:
        raise BadAddress(
            f"no Ray cluster answers at {address}: nothing within {timeout:g} s"
        ) from error
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise BadAddress(f"no Ray cluster answers at {address}: {reason}") from error


def join(ray: Any, address: str | None, timeout: float = JOIN_TIMEOUT) -> None:
    """Connect this process to Ray: to the cluster at `address` once its
    port answers, within `timeout` seconds, or to a new local instance
    (address None, no time limit: starting one may be slow)."""
    if address is None:
        _init(ray, None)
        return
    reach(address)
    outcome: list[BaseException | None] = []

    def connect() -> None:  # in a thread: Ray's own retries cannot be bounded
        try:
            _init(ray, address)
            outcome.append(None)
        except BaseException as error:  # handed to the waiting thread
            outcome.append(error)

    thread = threading.Thread(target=connect, name="ray-join", daemon=True)
    thread.start()
    thread.join(timeout)
    if not outcome:
        raise BadAddress(
            f"no Ray cluster answers at {address}: its port is open, but Ray did not "
            f"join within {timeout:g} s"
        )
    if outcome[0] is not None:
        raise outcome[0]


def _init(ray: Any, address: str | None) -> None:
    try:
        ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
    except Exception as error:  # Ray raises many kinds (ConnectionError, RuntimeError...)
        where = f"join the Ray cluster at {address}" if address else "start a local Ray instance"
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        failure = BadAddress if address else SimulateError
        raise failure(f"cannot {where}: {reason}") from error
