"""Short, blunt training statements: "I'm livid.", "The caller is thrilled." (data/blunt_train.jsonl).

The hand-written and synthetic feelings are 20-60 words of third-person analysis, so a bare
"I am furious" once mapped to disgust and "I am so angry now" to fear. These statements teach the
heads that a lone emotion word carries the emotion, in the first and the third person. Most
state no politeness, urgency or trust, so they carry the convention for unstated dimensions: the
middle level (neutral, moderate, cautious), as in the writers' brief; a third add one short
sentence that states one dimension ("I'm livid. I don't trust you at all." -> skeptical), so that a
stated level still wins over the default.

    python -m temo.emotion.blunt          # rewrites data/blunt_train.jsonl (seeded, deterministic)

The evaluation set data/eval/blunt.jsonl was written separately, by hand; no training statement
equals one of its texts (compared without case and punctuation; tested), and none is a near-duplicate
of a blind-set feeling by ``neardup.py``'s measure. They do share the emotion words themselves
("furious", "relieved"): for one-clause statements there is little else to share, so by that
measure most blunt evaluation texts have a close training neighbour (median cosine 0.59). The blunt
set therefore measures "does a bare emotion word in a short frame land", not generalisation to
unseen wording; the blind sets stay the estimate for that. Generic words follow one
convention, in both files: angry / mad -> frustration, furious / livid -> exasperation,
scared / afraid -> anxiety, sad / upset -> disappointment, happy / glad -> peace or relief.
"""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

from temo.core.taxonomy import FAMILY_OF

BLUNT_TRAIN_FILE = Path(__file__).resolve().parent / "data" / "blunt_train.jsonl"
EVAL_FILE = Path(__file__).resolve().parent / "data" / "eval" / "blunt.jsonl"
PER_EMOTION = 30
STATED_PER_EMOTION = 10  # of which carry one stated dimension (a second short sentence)
SEED = 11

# words that complete "I'm ..." / "The customer is ..."
WORDS: dict[str, tuple[str, ...]] = {
    "annoyance": ("annoyed", "irritated", "irked", "a bit miffed", "peeved", "mildly annoyed", "a little put out",
                  "bugged by it", "slightly cross"),
    "frustration": ("angry", "mad", "so angry", "really frustrated", "frustrated", "getting nowhere and angry",
                    "angry that nothing works", "stuck and frustrated", "mad that it keeps failing"),
    "argumentativeness": ("ready to argue", "combative", "spoiling for a fight", "in the mood to dispute this",
                          "confrontational", "arguing every point", "going to contest this"),
    "bitterness": ("bitter", "resentful", "still bitter about last time", "sour about how it went before",
                   "holding a grudge", "resentful about the past"),
    "exasperation": ("furious", "livid", "absolutely furious", "enraged", "fuming", "done with this",
                     "at the end of my rope", "sick and tired of it", "out of patience", "beyond fed up"),
    "anxiety": ("worried", "scared", "afraid", "anxious", "stressed", "really worried", "uneasy about it",
                "afraid this will go wrong", "scared it won't work out"),
    "nervousness": ("nervous", "jittery", "a bit shaky", "jumpy", "unsure and nervous", "on edge and hesitant"),
    "dread": ("dreading it", "dreading what comes next", "bracing for the worst", "terrified of the answer",
              "sure something bad is coming", "full of dread"),
    "desperation": ("desperate", "frantic", "panicking", "out of options", "begging for help",
                    "at my wits' end and desperate"),
    "dislike": ("not keen on it", "not a fan", "unimpressed", "not fond of it", "displeased with it",
                "not into this"),
    "aversion": ("keen to stay away from it", "determined to avoid it", "unwilling to go near it again",
                 "wanting nothing to do with it", "reluctant to touch it"),
    "distaste": ("put off by how tacky it is", "finding it cheap", "turned off by the tackiness",
                 "finding it unpleasant", "put off by it"),
    "repugnance": ("disgusted", "revolted", "sickened", "repulsed", "grossed out", "nauseated by it"),
    "disappointment": ("disappointed", "sad about it", "upset", "let down", "really disappointed",
                       "upset it didn't happen", "sad it fell through"),
    "discouragement": ("discouraged", "disheartened", "losing heart", "ready to give up", "demoralized",
                       "losing motivation"),
    "helplessness": ("helpless", "powerless", "at a loss", "lost and unable to fix it", "stuck and helpless",
                     "unable to do anything about it"),
    "hopelessness": ("hopeless", "without hope", "sure nothing will work", "resigned to it failing",
                     "out of hope", "convinced it's pointless"),
    "sorrow": ("heartbroken", "grieving", "devastated by the loss", "in mourning", "deeply sad",
               "very sad after the death"),
    "relief": ("relieved", "so relieved", "glad it's over", "relieved it's sorted", "glad that's fixed",
               "finally at ease now it's resolved"),
    "pride": ("proud", "really proud", "proud of it", "pleased with myself", "chuffed with what I did",
              "proud of the result"),
    "peace": ("calm", "happy with it", "content", "relaxed", "at peace", "happy and relaxed", "perfectly content"),
    "excitement": ("excited", "thrilled", "so excited", "pumped", "eager", "looking forward to it",
                   "over the moon and excited"),
}
FIRST = ("I'm {w}.", "I am {w}.", "Honestly, I'm {w}.", "I feel {w}.", "I'm {w} right now.", "Right now I'm {w}.",
         "I'm just {w}.", "Really, I am {w}.")
THIRD = ("The customer is {w}.", "The user is {w}.", "The caller is {w}.", "She is {w}.", "He's {w}.",
         "The customer feels {w}.", "They're {w}.", "The passenger is {w}.")

# a second sentence that states one dimension, so the middle-level default gives way to a stated level
STATED: dict[tuple[str, str], tuple[str, ...]] = {
    ("politeness", "warm"): ("Thank you so much for helping.", "Thanks, I appreciate it.", "You've been lovely."),
    ("politeness", "cold"): ("Just fix it.", "Spare me the script.", "Don't waste my time."),
    ("urgency", "high"): ("I need this sorted right now.", "It has to be done in the next hour.", "This can't wait."),
    ("urgency", "low"): ("No rush at all.", "Whenever you get to it is fine.", "It can wait until next week."),
    ("trust", "trusting"): ("I'm sure you'll sort it out.", "I trust you to handle it.", "I know you'll get it right."),
    ("trust", "skeptical"): ("I don't trust you at all.", "I doubt you'll actually fix it.",
                             "I don't believe a word the company says."),
}

def _third(w: str) -> str:
    return w.replace("myself", "themselves").replace("my ", "their ").replace("I did", "they did")


def norm(text: str) -> str:
    return re.sub(r"[^a-z ]", "", text.lower()).strip()


def generate(per_emotion: int = PER_EMOTION, seed: int = SEED, avoid: set[str] | None = None) -> list[dict]:
    rng = random.Random(seed)
    avoid = avoid or set()
    out, seen = [], set(avoid)
    for emo, words in WORDS.items():
        cands = [f.format(w=w) for w in words for f in FIRST] + [f.format(w=_third(w)) for w in words for f in THIRD]
        rng.shuffle(cands)
        n = 0
        for t in cands:
            if norm(t) in seen:
                continue
            seen.add(norm(t))
            out.append({"text": t, "family": FAMILY_OF[emo], "emotion": emo, "politeness": "neutral",
                        "urgency": "moderate", "trust": "cautious", "style": "blunt"})
            n += 1
            if n == per_emotion - STATED_PER_EMOTION:
                break
        plain = [r["text"] for r in out[len(out) - n:]]
        stated = list(STATED.items())
        for k in range(STATED_PER_EMOTION):
            (dim, level), tails = stated[(k + rng.randrange(len(stated))) % len(stated)]
            base = plain[rng.randrange(len(plain))]
            tail = rng.choice(tails)
            if not base.startswith(("I", "Honestly", "Right now", "Really")):
                tail = _stated_third(tail)
            t = f"{base} {tail}"
            if norm(t) in seen:
                continue
            seen.add(norm(t))
            out.append({"text": t, "family": FAMILY_OF[emo], "emotion": emo, "politeness": "neutral",
                        "urgency": "moderate", "trust": "cautious", "style": "blunt", dim: level})
    return out


def _stated_third(tail: str) -> str:
    if tail == "Just fix it.":
        return "They just want it fixed."
    return (tail.replace("I'm", "They're").replace("I've", "They've").replace("I ", "They ")
            .replace("you'll", "the agent will").replace("You've", "The agent has").replace("you", "the agent")
            .replace("Thank the agent", "They thank the agent").replace("Thanks, They", "Thanks, they")
            .replace("Don't", "They say: don't").replace("Spare me", "They say: spare me")
            .replace(" my ", " their ").replace("the agent get to", "the agent gets to"))


def main() -> int:
    from .neardup import NEAR_DUP_THRESHOLD, blind_rows, training_neighbours

    avoid = {norm(json.loads(line)["text"]) for line in EVAL_FILE.read_text(encoding="utf-8").splitlines() if line.strip()}
    # also keep out every candidate that is a near-duplicate of a blind-set feeling (neardup.py's
    # measure: "The customer is relieved." against a long blind text that leans on "relieved")
    # (the idf depends on the whole file, so repeat until the written file itself is clean)
    blind = blind_rows()
    rows = generate(avoid=avoid)
    for _ in range(20):
        near = {norm(rows[j]["text"]) for _, j, _ in training_neighbours(rows, blind, NEAR_DUP_THRESHOLD)}
        if not near:
            break
        avoid |= near
        rows = generate(avoid=avoid)
    BLUNT_TRAIN_FILE.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    print(f"wrote {len(rows)} blunt training statements to {BLUNT_TRAIN_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
