"""Tracer's LLM writers over a loopback OpenAI-compatible server: a rewrite that keeps every fact is
used; one that drops a fact is rejected and the offline text kept; feelings come from the endpoint."""
from __future__ import annotations

from collections import Counter

from llm_fake_server import FakeLLMServer, reply

from temo.domains import get_domain
from temo.llm.settings import LLMSettings
from temo.tracer.feel import feel
from temo.tracer.ground import ground_trace, load_grounder
from temo.tracer.instruct import instruct
from temo.tracer.sample import sample


def grounded(n: int) -> list[dict]:
    dom = get_domain("retail")
    grounder = load_grounder(dom)
    out, usage, drops = [], Counter(), Counter()
    for rec in sample(dom.graph, 300, 3, "retail"):
        if rec["split"] != "test":
            continue
        g = ground_trace(dom, grounder, rec, usage, drops, 0)
        if g:
            out.append(g)
        if len(out) == n:
            return out
    raise AssertionError("not enough grounded traces")


def test_instruction_rewrite_keeps_facts_or_falls_back():
    recs = grounded(2)

    marker = recs[0]["grounded"]["name"]

    def respond(body):  # a faithful rewrite for the first task, a lossy one for the second
        text = body["messages"][-1]["content"].split("\n\n", 1)[1]
        if marker in text:
            return reply(content="Rewritten: " + text.replace("\n", " "))
        return reply(content="A short text that forgets every value.")

    with FakeLLMServer(respond) as server:
        writer = LLMSettings(role="writer", model="w", base_url=server.url, max_retries=0)
        out = instruct(recs, "the agent of a store", 0, writer)
    offline = instruct(recs, "the agent of a store", 0, None)
    assert len(server.requests) == 2
    assert [r["writer"] for r in out] == ["llm", "offline"]
    assert out[0]["instruction"].startswith("Rewritten: ")
    assert all(f["value"] in out[0]["instruction"] for f in out[0]["scenario"]["known"])
    assert out[1]["instruction"] == offline[1]["instruction"]


def test_feelings_come_from_the_endpoint_and_see_only_the_scenario():
    recs = instruct(grounded(2), "the agent of a store", 0, None)
    with FakeLLMServer(lambda body: reply(content="The user is likely anxious and curt, wanting it done today.")) as server:
        writer = LLMSettings(role="writer", model="w", base_url=server.url, max_retries=0)
        out = feel(recs, 0, "k", writer)
    assert [r["feeling_writer"] for r in out] == ["llm", "llm"]
    assert all(r["feeling"].startswith("The user is likely anxious") for r in out)
    for body in server.requests:  # the prompt carries the persona and the requests, never the database
        text = body["messages"][-1]["content"]
        assert "user_id" not in text and "payment_method_id" not in text
