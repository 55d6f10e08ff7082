"""A headless Chromium driven over the DevTools protocol (aiohttp websocket; no extra package).

    with Browser() as b:
        b.goto("file:///.../report.html")
        b.js("document.title")
        b.screenshot(path)

Uses Debian's /usr/bin/chromium (or $TEMO_CHROMIUM); `available()` says whether one is installed.
"""
from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-port=0", "--window-size=1400,1000"]


def chromium_path() -> Optional[str]:
    for cand in (os.environ.get("TEMO_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if cand and Path(cand).exists():
            return cand
    return None


def available() -> bool:
    return chromium_path() is not None


class Browser:
    def __init__(self, timeout: float = 30.0):
        self.timeout = timeout
        self.loop = asyncio.new_event_loop()
        self.profile = tempfile.mkdtemp(prefix="temo-chromium-")
        self.proc: Optional[subprocess.Popen] = None
        self._id = 0

    def __enter__(self) -> "Browser":
        exe = chromium_path()
        assert exe, "no chromium installed"
        self.proc = subprocess.Popen([exe, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        port = None
        deadline = time.time() + self.timeout
        while time.time() < deadline and port is None:
            line = self.proc.stderr.readline()
            if not line and self.proc.poll() is not None:
                raise RuntimeError("chromium exited before it listened")
            m = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
            if m:
                port = int(m.group(1))
        assert port, "chromium did not start its DevTools endpoint"
        self.loop.run_until_complete(self._connect(port))
        return self

    async def _connect(self, port: int) -> None:
        import aiohttp

        self.session = aiohttp.ClientSession()
        for _ in range(50):
            async with self.session.get(f"http://127.0.0.1:{port}/json/list") as r:
                pages = [p for p in await r.json(content_type=None) if p.get("type") == "page"]
            if pages:
                break
            await asyncio.sleep(0.1)
        self.ws = await self.session.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0)
        await self._send("Page.enable")
        await self._send("Runtime.enable")

    async def _send(self, method: str, **params: Any) -> dict[str, Any]:
        self._id += 1
        my = self._id
        await self.ws.send_str(json.dumps({"id": my, "method": method, "params": params}))
        while True:
            msg = await asyncio.wait_for(self.ws.receive(), self.timeout)
            data = json.loads(msg.data)
            if data.get("id") == my:
                if "error" in data:
                    raise RuntimeError(f"{method}: {data['error']}")
                return data.get("result", {})

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        return self.loop.run_until_complete(self._send(method, **params))

    def js(self, expression: str) -> Any:
        res = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in res:
            raise RuntimeError(f"page error: {res['exceptionDetails'].get('exception', {}).get('description') or res['exceptionDetails']}")
        return res.get("result", {}).get("value")

    def goto(self, url: str) -> None:
        self.call("Page.navigate", url=url)
        deadline = time.time() + self.timeout
        while time.time() < deadline:
            if self.js("document.readyState") == "complete":
                return
            time.sleep(0.05)
        raise TimeoutError(f"{url} did not finish loading")

    def wait_for(self, expression: str) -> Any:
        deadline = time.time() + self.timeout
        while time.time() < deadline:
            value = self.js(expression)
            if value:
                return value
            time.sleep(0.05)
        raise TimeoutError(f"never true: {expression}")

    def screenshot(self, path: Path, full_page: bool = False) -> Path:
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
        data = self.call("Page.captureScreenshot", **params)["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def __exit__(self, *exc: Any) -> None:
        async def close() -> None:
            await self.ws.close()
            await self.session.close()

        try:
            self.loop.run_until_complete(close())
        finally:
            self.loop.close()
            if self.proc is not None:
                self.proc.terminate()
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
            shutil.rmtree(self.profile, ignore_errors=True)
