"""A loopback OpenAI-compatible chat server for the llm tests: scripted replies, fault injection.

    with FakeLLMServer() as server:
        server.push(reply(content="hi"), Fault(status=429), reply(tool_calls=[...]))
        ... AsyncOpenAI(base_url=server.url) ...
        server.requests   # every JSON body received, in order

Replies are taken from the queue in order; when it is empty, ``server.default(body)`` answers
(a callable, returning a reply dict or a Fault). Only 127.0.0.1, never any other address.
"""
from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Optional, Union


@dataclass
class Fault:
    status: int = 500
    delay: float = 0.0  # seconds to wait before answering (a timeout when > the client's timeout)
    headers: dict[str, str] = field(default_factory=dict)
    body: Optional[dict[str, Any]] = None
    drop: bool = False  # close the connection without answering


def reply(content: Optional[str] = None, tool_calls: Optional[list[dict[str, Any]]] = None,
          reasoning_content: Optional[str] = None, reasoning: Optional[str] = None,
          usage: Optional[tuple[int, int]] = (10, 5), finish_reason: str = "stop") -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls is not None:
        message["tool_calls"] = tool_calls
    if reasoning_content is not None:
        message["reasoning_content"] = reasoning_content
    if reasoning is not None:
        message["reasoning"] = reasoning
    out: dict[str, Any] = {
        "id": "chatcmpl-test", "object": "chat.completion", "created": int(time.time()), "model": "fake",
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason if not tool_calls else "tool_calls"}],
    }
    if usage is not None:
        out["usage"] = {"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": usage[0] + usage[1]}
    return out


def call(name: str, arguments: Union[str, dict[str, Any]], call_id: Optional[str] = None) -> dict[str, Any]:
    args = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"id": call_id or f"call_{name}_{abs(hash(args)) % 10000}", "type": "function",
            "function": {"name": name, "arguments": args}}


Responder = Callable[[dict[str, Any]], Union[dict[str, Any], Fault]]


class FakeLLMServer:
    def __init__(self, default: Optional[Responder] = None):
        self.queue: deque[Union[dict[str, Any], Fault]] = deque()
        self.default: Responder = default or (lambda body: reply(content="ok"))
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    return self._send(404, {"error": {"message": f"no route {self.path}"}})
                try:
                    body = json.loads(raw)
                except json.JSONDecodeError:
                    return self._send(400, {"error": {"message": "bad json"}})
                with server.lock:
                    server.requests.append(body)
                    server.headers.append({k.lower(): v for k, v in self.headers.items()})
                    item = server.queue.popleft() if server.queue else None
                if item is None:
                    item = server.default(body)
                if isinstance(item, Fault):
                    if item.delay:
                        time.sleep(item.delay)
                    if item.drop:
                        self.close_connection = True
                        self.connection.close()
                        return
                    return self._send(item.status, item.body or {"error": {"message": f"injected {item.status}"}},
                                      item.headers)
                self._send(200, item)

            def _send(self, status: int, payload: dict[str, Any], headers: Optional[dict[str, str]] = None) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def push(self, *items: Union[dict[str, Any], Fault]) -> None:
        with self.lock:
            self.queue.extend(items)

    def start(self) -> "FakeLLMServer":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> "FakeLLMServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
