"""Optional: rewrite / extend anchors with an LLM at any OpenAI-compatible endpoint (off by default).

    python -m temo.emotion.llm_rewrite --base-url http://localhost:8000/v1 --model my-model \\
        --api-key-env MY_KEY --out anchors_llm.jsonl [--limit 20] [--extra 0]

For each condition the LLM sees the condition labels and the 10 offline anchors and is asked for
10 rewritten instructions (second person, 1-3 sentences, same condition); ``--extra N`` asks for
N more. Results that are not a JSON list of distinct strings are rejected and the offline anchors
kept, so the output always has >= 10 anchors per condition. The shipped anchors file is never
modified: the mapper keeps using the offline anchors unless you replace data/anchors.jsonl with
the output and retrain (python -m temo.emotion.train).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from temo.core import EmotionCondition

from .anchors import anchors_for

PROMPT = (
    "You write instructions for a simulated customer-service user. Condition: fine emotion "
    "'{emotion}' (family {family}), politeness '{politeness}', urgency '{urgency}', trust "
    "'{trust}' toward the agent. Here are {n} instructions for this condition:\n{examples}\n"
    "Rewrite them as {k} new instructions that keep exactly this condition. Each: second person "
    "('You ...'), 1-3 sentences, says how to feel and how to communicate; all different from each "
    "other. Answer with a JSON list of {k} strings and nothing else."
)


def rewrite_condition(client, model: str, cond: EmotionCondition, extra: int = 0,
                      temperature: float = 0.7) -> list[str]:
    base = anchors_for(cond)
    k = len(base) + extra
    msg = PROMPT.format(emotion=cond.emotion, family=cond.family, politeness=cond.politeness,
                        urgency=cond.urgency, trust=cond.trust, n=len(base),
                        examples="\n".join(f"- {t}" for t in base), k=k)
    resp = client.chat.completions.create(model=model, temperature=temperature,
                                          messages=[{"role": "user", "content": msg}])
    text = (resp.choices[0].message.content or "").strip()
    if text.startswith("```"):
        text = text.strip("`").removeprefix("json").strip()
    try:
        out = json.loads(text)
    except json.JSONDecodeError:
        return base
    if (not isinstance(out, list) or len(out) < len(base) or len(set(out)) != len(out)
            or not all(isinstance(t, str) and t.strip() for t in out)):
        return base
    return [t.strip() for t in out]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base-url", default=None)
    ap.add_argument("--model", required=True)
    ap.add_argument("--api-key-env", default="OPENAI_API_KEY")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--limit", type=int, default=None, help="only the first N conditions")
    ap.add_argument("--extra", type=int, default=0)
    args = ap.parse_args(argv)
    key = os.environ.get(args.api_key_env)
    if not key:
        print(f"error: environment variable {args.api_key_env} is not set", file=sys.stderr)
        return 2
    from openai import OpenAI

    client = OpenAI(base_url=args.base_url, api_key=key)
    conds = EmotionCondition.all()[: args.limit]
    with args.out.open("w", encoding="utf-8") as f:
        for i, cond in enumerate(conds, 1):
            for j, t in enumerate(rewrite_condition(client, args.model, cond, args.extra)):
                f.write(json.dumps({"condition_id": cond.id, "index": j, "text": t}) + "\n")
            print(f"\r{i}/{len(conds)} conditions", end="", file=sys.stderr)
    print(file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
