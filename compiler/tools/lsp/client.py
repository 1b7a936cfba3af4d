"""A small language-server client over pipes: JSON-RPC messages framed by
Content-Length headers, as an editor sends them. The benchmark and the tests
talk to `splendor-rules lsp` through it, a process of its own; it needs
nothing of pygls."""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

Json = Any


class ServerError(Exception):
    """An error the server answered a request with (its message)."""

    def __init__(self, error: Json) -> None:
        super().__init__(str(error.get("message", error)))
        self.error = error


class Client:
    """Starts a server command and exchanges messages with it."""

    def __init__(
        self, command: Sequence[str], cwd: Path | None = None, stderr: IO[bytes] | None = None
    ):
        self.process = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr if stderr is not None else subprocess.DEVNULL,
            cwd=cwd,
        )
        self._next = 0
        self._responses: dict[int, queue.Queue[Json]] = {}
        self._lock = threading.Lock()
        self.notifications: queue.Queue[Json] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # ------------------------------------------------------------ framing

    def _send(self, message: Json) -> None:
        body = json.dumps(message).encode("utf-8")
        stdin = self.process.stdin
        assert stdin is not None
        with self._lock:
            stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            stdin.flush()

    def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        while True:
            length = None
            while True:
                line = stdout.readline()
                if not line:
                    self.notifications.put(None)  # the server has gone
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            if length is None:
                continue
            message = json.loads(stdout.read(length))
            self._dispatch(message)

    def _dispatch(self, message: Json) -> None:
        if "id" in message and "method" in message:  # a request of the server's
            self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
        elif "id" in message:
            waiting = self._responses.get(message["id"])
            if waiting is not None:
                waiting.put(message)
        else:
            self.notifications.put(message)

    # ---------------------------------------------------------- messages

    def request(self, method: str, params: Json, timeout: float = 60) -> Json:
        """Send a request and wait for its answer's result (ServerError for an error)."""
        with self._lock:
            self._next += 1
            number = self._next
        answer: queue.Queue[Json] = queue.Queue()
        self._responses[number] = answer
        self._send({"jsonrpc": "2.0", "id": number, "method": method, "params": params})
        try:
            message = answer.get(timeout=timeout)
        finally:
            del self._responses[number]
        if "error" in message:
            raise ServerError(message["error"])
        return message.get("result")

    def notify(self, method: str, params: Json) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_for(self, wanted: Callable[[Json], bool], timeout: float = 60) -> Json:
        """The next notification that `wanted` accepts (earlier ones are dropped)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no such notification from the server")
            message = self.notifications.get(timeout=left)
            if message is None:
                raise ConnectionError("the server has stopped")
            if wanted(message):
                return message

    def diagnostics(self, uri: str, version: int | None = None, timeout: float = 60) -> list[Json]:
        """The next diagnostics published for a document (of a version)."""

        def wanted(message: Json) -> bool:
            params = message.get("params", {})
            return bool(
                message.get("method") == "textDocument/publishDiagnostics"
                and params.get("uri") == uri
                and (version is None or params.get("version") == version)
            )

        found: list[Json] = self.wait_for(wanted, timeout)["params"]["diagnostics"]
        return found

    # --------------------------------------------------------- life cycle

    def initialize(self, root: Path) -> Json:
        result = self.request(
            "initialize",
            {"processId": None, "rootUri": root.resolve().as_uri(), "capabilities": {}},
        )
        self.notify("initialized", {})
        return result

    def close(self, timeout: float = 10) -> int:
        """Shut the server down as an editor does; its exit code."""
        try:
            if self.process.poll() is None:
                self.request("shutdown", None, timeout=timeout)
                self.notify("exit", None)
        except (OSError, TimeoutError, ServerError):
            pass
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()
        finally:
            for stream in (self.process.stdin, self.process.stdout):
                if stream is not None:
                    stream.close()
