"""Throughput of the llm layer against a loopback server with a fixed latency per request.

    python benchmarks/bench_llm_harness.py                      # 50 ms, concurrency 1, 16, 64
    python benchmarks/bench_llm_harness.py --mode orchestrator  # full episodes through the harness
    python benchmarks/bench_llm_harness.py --latency 0.02 --concurrency 1,8,32,128 --duration 8

A child process serves an OpenAI-compatible /v1/chat/completions on 127.0.0.1 from a raw asyncio
server that sleeps ``--latency`` seconds and answers with a canned reply (a request offering tools
is the agent, the others the user), so the server is never the bottleneck. ``--concurrency`` episodes
run at once, each a fresh llm agent and llm user on the retail domain (policy as system prompt,
its tools offered, the history growing every turn), exactly the requests a real run sends.

Reported: achieved calls/s and its ratio to the latency bound, concurrency / latency (what an
infinitely fast client would reach). Goal: >= 95% at concurrency 64 and 50 ms.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import socket
import sys
import time

AGENT_REPLY = {"role": "assistant", "content": "Thanks. I have checked that for you. Is there anything else?",
               "reasoning_content": "The user wants help; answer briefly."}
USER_REPLY = {"role": "assistant", "content": "Yes, please go on with the next step."}
USER_STOP = {"role": "assistant", "content": "That's all, thank you. ###STOP###"}


def _response(message: dict) -> bytes:
    body = json.dumps({
        "id": "chatcmpl-bench", "object": "chat.completion", "created": 0, "model": "bench",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1000, "completion_tokens": 20, "total_tokens": 1020},
    }).encode()
    return b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n" % len(body) + body


# ------------------------------------------------------------------------------------------------
# server (child process)
# ------------------------------------------------------------------------------------------------


def serve(port_out, latency: float, stop_after_user_turns: int) -> None:
    agent, user, stop = _response(AGENT_REPLY), _response(USER_REPLY), _response(USER_STOP)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line[:15].lower() == b"content-length:":
                        length = int(line[15:])
                body = await reader.readexactly(length)
                if latency:
                    await asyncio.sleep(latency)
                if b'"tools"' in body:
                    out = agent
                elif stop_after_user_turns and body.count(b'"role": "assistant"') + body.count(b'"role":"assistant"') >= stop_after_user_turns:
                    out = stop
                else:
                    out = user
                writer.write(out)
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError, ValueError):
            pass
        finally:
            writer.close()

    async def main() -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        server = await asyncio.start_server(handle, sock=sock, limit=2**22, backlog=1024)
        port_out.send(sock.getsockname()[1])
        async with server:
            await server.serve_forever()

    try:
        import uvloop  # type: ignore

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(main())


# ------------------------------------------------------------------------------------------------
# client: episodes
# ------------------------------------------------------------------------------------------------


def _role(url: str, concurrency: int, kind: str = "llm"):
    from temo.core import RoleConfig

    return RoleConfig(kind=kind, model="bench", base_url=url,
                      extra={"concurrency": concurrency, "max_retries": 0, "timeout": 30})


async def _episode_direct(url: str, concurrency: int, turns: int, seed: int, tick) -> None:
    import random

    from temo.agents.base import GREETING, AgentContext
    from temo.agents.llm import create as create_agent
    from temo.core import Message
    from temo.domains import get_domain
    from temo.users.base import UserContext
    from temo.users.llm import create as create_user

    domain = get_domain("retail")
    task = domain.tasks("test")[seed % len(domain.tasks("test"))]
    agent = create_agent(_role(url, concurrency), AgentContext(domain, task, "test", "emotion", 0, seed, random.Random(seed)))
    user = create_user(_role(url, concurrency), UserContext(task, "emotion", 0, seed, random.Random(seed)))
    messages = [Message(role="system", content=domain.policy), Message(role="assistant", content=GREETING)]
    reply = await user.respond(GREETING)
    tick()
    for _ in range(turns):
        messages.append(Message(role="user", content=reply.text))
        msg = await agent.respond(messages)
        tick()
        messages.append(msg)
        reply = await user.respond(msg.content or "")
        tick()


async def _episode_orchestrator(url: str, concurrency: int, turns: int, seed: int, tick) -> None:
    import random

    from temo.agents.base import AgentContext
    from temo.agents.llm import create as create_agent
    from temo.domains import get_domain
    from temo.harness.orchestrator import run_episode
    from temo.users.base import UserContext
    from temo.users.llm import create as create_user

    domain = get_domain("retail")
    task = domain.tasks("test")[seed % len(domain.tasks("test"))]
    agent = create_agent(_role(url, concurrency), AgentContext(domain, task, "test", "emotion", 0, seed, random.Random(seed)))
    user = create_user(_role(url, concurrency), UserContext(task, "emotion", 0, seed, random.Random(seed)))
    for actor in (agent, user):
        respond = actor.respond

        async def counted(arg, _respond=respond):
            out = await _respond(arg)
            tick()
            return out

        actor.respond = counted  # count each call when it completes
    record = await run_episode(domain, task, "emotion", 0, seed, agent, user)
    assert record.termination == "user_stop", record.termination


async def measure(url: str, concurrency: int, latency: float, duration: float, warmup: float, turns: int, mode: str) -> dict:
    from temo.llm import aclose_clients

    episode = _episode_direct if mode == "direct" else _episode_orchestrator
    counts = {"calls": 0}
    window = {"start": None, "end": None, "calls": 0}
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    stop_at = t0 + warmup + duration

    def tick() -> None:
        now = loop.time()
        counts["calls"] += 1
        if window["start"] is None and now >= t0 + warmup:
            window["start"], window["calls"], window["cpu0"] = now, counts["calls"], time.process_time()
        if window["start"] is not None and now <= stop_at:
            window["end"], window["end_calls"], window["cpu1"] = now, counts["calls"], time.process_time()

    async def worker(i: int) -> None:
        n = 0
        while loop.time() < stop_at:
            await episode(url, concurrency, turns, i * 100_003 + n, tick)
            n += 1

    await asyncio.gather(*(worker(i) for i in range(concurrency)))
    await aclose_clients()
    span = (window["end"] or stop_at) - (window["start"] or t0)
    calls = window.get("end_calls", counts["calls"]) - window["calls"]
    rate = calls / span if span > 0 else 0.0
    bound = concurrency / latency if latency else float("inf")
    cpu_ms = (window.get("cpu1", 0.0) - window.get("cpu0", 0.0)) * 1000 / calls if calls else 0.0
    return {"concurrency": concurrency, "calls": calls, "seconds": round(span, 2), "calls_per_s": round(rate, 1),
            "client_cpu_ms_per_call": round(cpu_ms, 3),
            "bound_per_s": round(bound, 1), "ratio": round(rate / bound, 4) if bound != float("inf") else None}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--latency", type=float, default=0.05, help="server latency per request, seconds")
    parser.add_argument("--concurrency", default="1,16,64", help="comma-separated episode concurrency levels")
    parser.add_argument("--duration", type=float, default=5.0, help="measured seconds per level")
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds before measuring, per level")
    parser.add_argument("--turns", type=int, default=6, help="agent turns per episode")
    parser.add_argument("--mode", choices=["direct", "orchestrator"], default="direct",
                        help="direct: agent+user roles in a plain loop; orchestrator: temo.harness run_episode")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    levels = [int(c) for c in args.concurrency.split(",") if c.strip()]

    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe()
    stop_turns = args.turns + 1 if args.mode == "orchestrator" else 0
    proc = ctx.Process(target=serve, args=(child, args.latency, stop_turns), daemon=True)
    proc.start()
    try:
        if not parent.poll(30):
            print("the benchmark server did not start", file=sys.stderr)
            return 1
        url = f"http://127.0.0.1:{parent.recv()}/v1"
        rows = [asyncio.run(measure(url, c, args.latency, args.duration, args.warmup, args.turns, args.mode)) for c in levels]
    finally:
        proc.terminate()
        proc.join(5)

    if args.json:
        print(json.dumps({"latency_s": args.latency, "mode": args.mode, "cpus": os.cpu_count(), "rows": rows}, indent=2))
        return 0
    print(f"llm harness throughput: mode={args.mode}, server latency {args.latency * 1000:.0f} ms, "
          f"{args.duration:g}s per level, {os.cpu_count()} CPUs")
    print(f"{'concurrency':>11} {'calls':>7} {'calls/s':>9} {'bound/s':>9} {'ratio':>7} {'client CPU ms/call':>19}")
    for r in rows:
        ratio = f"{r['ratio'] * 100:6.1f}%" if r["ratio"] is not None else "   n/a"
        print(f"{r['concurrency']:>11} {r['calls']:>7} {r['calls_per_s']:>9.1f} {r['bound_per_s']:>9.1f} {ratio:>7} "
              f"{r['client_cpu_ms_per_call']:>19.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
