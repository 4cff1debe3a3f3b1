"""A minimal DevTools-protocol client for the browser tests: one headless chromium,
driven over ``--remote-debugging-pipe`` (JSON messages ending in NUL on the child's
fds 3 and 4), so many pages cost one browser start.  Standard library only."""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import subprocess


class Browser:
    def __init__(self, executable: str, profile: str):
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()

        def fds() -> None:   # in the child: its fd 3 reads commands, fd 4 writes replies
            # Move both ends above 4 first: a pipe end may itself be fd 3 or 4, and
            # dup2 onto itself would keep its close-on-exec flag.
            high_r = fcntl.fcntl(to_child_r, fcntl.F_DUPFD, 10)
            high_w = fcntl.fcntl(from_child_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.proc = subprocess.Popen(
            [executable, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
             "--hide-scrollbars", "--remote-debugging-pipe", f"--user-data-dir={profile}",
             "--window-size=1100,650", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, close_fds=False)
        os.close(to_child_r)
        os.close(from_child_w)
        self._buffer = b""
        self._id = 0
        self.events: list[dict] = []

    def _read(self) -> dict:
        while b"\0" not in self._buffer:
            chunk = os.read(self._from_child, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method: str, session: str | None = None, **params) -> dict:
        self._id += 1
        message: dict = {"id": self._id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._to_child, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str, session: str) -> dict:
        for i, event in enumerate(self.events):
            if event.get("method") == method and event.get("sessionId") == session:
                return self.events.pop(i)
        while True:
            event = self._read()
            if event.get("method") == method and event.get("sessionId") == session:
                return event
            self.events.append(event)

    def close(self) -> None:
        # The browser may close the pipe before it answers its own shutdown.
        with contextlib.suppress(RuntimeError, OSError):
            self.call("Browser.close")
        os.close(self._to_child)
        os.close(self._from_child)
        self.proc.wait(timeout=30)


class Page:
    """A tab: load a URL, evaluate JavaScript, take a screenshot, read the console."""

    def __init__(self, browser: Browser, url: str):
        self.browser = browser
        target = browser.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = browser.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            browser.call(f"{domain}.enable", self.session)
        self.target = target
        loaded = browser.call("Page.navigate", self.session, url=url)
        if loaded.get("errorText"):
            raise RuntimeError(f"{url}: {loaded['errorText']}")
        browser.wait_for("Page.loadEventFired", self.session)

    def evaluate(self, expression: str):
        result = self.browser.call("Runtime.evaluate", self.session, expression=expression,
                                   returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"].get("value")

    def close(self) -> None:
        self.browser.call("Target.closeTarget", targetId=self.target)

    def screenshot(self) -> bytes:
        data = self.browser.call("Page.captureScreenshot", self.session, format="png")["data"]
        return base64.b64decode(data)

    def console(self) -> list[str]:
        """What the page logged: console calls, uncaught exceptions, browser log errors."""
        out = []
        for event in self.browser.events:
            if event.get("sessionId") != self.session:
                continue
            params = event.get("params", {})
            if event.get("method") == "Runtime.consoleAPICalled":
                out.append(f"console.{params.get('type')}: "
                           + " ".join(str(a.get("value", a.get("description"))) for a in params.get("args", [])))
            elif event.get("method") == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                out.append(f"exception: {details.get('exception', {}).get('description', details.get('text'))}")
            elif event.get("method") == "Log.entryAdded":
                entry = params.get("entry", {})
                out.append(f"log.{entry.get('level')}: {entry.get('text')}")
        return out
