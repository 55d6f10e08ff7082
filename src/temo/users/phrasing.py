"""How a scripted user sounds: feelings, politeness, urgency, trust and patience, by emotion condition.

Every line here was written for this project, in the voice of a customer talking to a support
agent. A message is composed as

    [feeling line] [warm/cold opener] <core content> [warm/cold closer] [urgency line] [trust line]

The feeling line belongs to the condition's *fine* emotion (22 sets), the others to its
politeness, urgency and trust levels. The first message carries every part; later ones carry
each part with a fixed probability, drawn with the episode's seeded RNG, so the same cell always
reads the same and different conditions read differently. Lines are drawn without repeating
until a set is used up. The core content (the request, the facts, the answers) is never changed,
except that a cold user confirms with "Yes, go ahead." instead of "Yes, please go ahead.".

The lines describe feelings and attitudes only: no facts (dates, amounts, past events) a grader
could mistake for invented task details. No line starts with "No" or with a yes-word, and none
contains a consent phrase, so wrapping a refusal or a confirmation does not change what
``temo.core.phrases.is_affirmative`` reads (tested).
"""
from __future__ import annotations

import random
from typing import Optional

from ..core import EmotionCondition

FEELINGS: dict[str, list[str]] = {
    # anger
    "annoyance": [
        "This is a bit irritating, to be honest.", "It bugs me that this wasn't sorted out already.",
        "I'm a little irked, I won't lie.", "Mildly annoying that I have to ask for this at all.",
        "It's a small thing, but it's getting on my nerves.", "Bit of a nuisance, this.",
        "I'm slightly irritated, but let's get on with it.", "It's irritating to spend my time on this."],
    "frustration": [
        "I keep hitting a wall with this and it's really frustrating.",
        "It's so frustrating that something this simple is this hard.",
        "This feels like going around in circles.", "I feel stuck and I'm getting frustrated.",
        "It's maddening how many hoops there are to jump through.",
        "I just want this to work for once without a fight.",
        "Every way I turn with this, something blocks me.", "I'm getting really fed up with how hard this is."],
    "argumentativeness": [
        "And I'll want a proper reason, not just 'that's the policy'.",
        "I'm ready to argue this point if I have to.",
        "Explain to me why it should work any other way.",
        "I don't accept a rule just because it's written down somewhere.",
        "I'll dispute anything that doesn't add up, so be ready.",
        "Before you quote me a rule, think about whether it even makes sense.",
        "I'm going to challenge you on this if it comes to that.",
        "Let's debate it properly if you think I'm wrong."],
    "bitterness": [
        "Honestly, I resent having to deal with this at all.",
        "It's always the customer who ends up paying for these things, isn't it.",
        "I'm still sore about how this has been handled.",
        "I feel I've been treated unfairly here, and it stings.",
        "Funny how these things never go my way.", "I'm bitter about it, I won't pretend otherwise.",
        "After everything, this is what I get.", "I can't help feeling resentful about the whole business."],
    "exasperation": [
        "I am at the end of my rope here.", "I've had it up to here with this.",
        "For goodness' sake, this shouldn't be so hard.", "I'm completely out of patience at this point.",
        "Honestly, I could scream.", "I can't believe this is still a problem.",
        "This is beyond ridiculous.", "Enough already, I just want this finished."],
    # fear
    "anxiety": [
        "I'm really anxious about getting this right.", "This has me on edge, I keep worrying something will go wrong.",
        "I can't stop worrying about this.", "My stomach's in knots over it.",
        "I'm worried sick this will get messed up.", "It's been weighing on my mind all day.",
        "Sorry, I'm a worrier and this has me uneasy.", "Things like this make me so anxious."],
    "nervousness": [
        "I'm a little nervous, I don't do this very often.", "Bit jittery about this, to be honest.",
        "I'm nervous I'll say the wrong thing.", "Forgive me if I ramble, I'm nervous.",
        "My hands are shaking a little, silly as it sounds.", "I get butterflies with this sort of thing.",
        "I'm nervous about getting a detail wrong here.", "Sorry, I'm a bundle of nerves today."],
    "dread": [
        "I've been dreading this conversation.", "I have a horrible feeling this is going to go badly.",
        "I'm dreading what happens if this doesn't work out.", "Just thinking about this fills me with dread.",
        "Something tells me this will end badly, and I hate that feeling.", "I'm bracing myself for bad news.",
        "I'm afraid of what I'm going to hear.", "There's a pit in my stomach about how this will turn out."],
    "desperation": [
        "Please, I really need this to work, I'm out of options.", "I'm desperate at this point, you're my last hope.",
        "I don't know what I'll do if this can't be fixed.", "Please, I'm begging you, help me with this.",
        "I have nowhere else to turn.", "I'll do whatever it takes, I just need this fixed.",
        "I'm really counting on you, there's no plan B.", "I'm frantic, I need a way out of this."],
    # disgust
    "dislike": [
        "I don't much like the way this works.", "Not a fan of how this has been set up.",
        "I've never liked dealing with this sort of thing.", "To be honest, I dislike this whole process.",
        "This isn't something I enjoy, I'll say that.", "I'm not keen on any of this.",
        "I can't say I care for how this is handled.", "It's not to my liking, this system."],
    "aversion": [
        "I'd really rather not be doing this at all.", "I can't stand this kind of thing, so let's keep it brief.",
        "I want to get this over with and never think about it again.", "Honestly, I shy away from this kind of thing.",
        "I'd keep my distance from this if I could.", "The less I have to deal with this, the better.",
        "I recoil a bit at having to do this.", "I'd avoid this entirely if it were up to me."],
    "distaste": [
        "I find this whole thing rather distasteful.", "It's a bit unsavoury, frankly.",
        "This leaves a sour taste in my mouth.", "I find the way this is done a bit tacky.",
        "Frankly, it's in poor taste.", "I'm rather put off by all this.",
        "There's something cheap about how this works.", "It's all a bit grubby, if I'm honest."],
    "repugnance": [
        "Frankly, this is revolting.", "I find it repulsive, honestly.",
        "It's sickening that things are like this.", "This is disgusting, there's no other word for it.",
        "It makes my skin crawl.", "The whole thing is vile.",
        "I'm appalled and frankly sickened.", "It's repugnant, and I want it dealt with."],
    # sadness
    "disappointment": [
        "I have to say I'm disappointed.", "I expected better than this, honestly.",
        "This is a letdown.", "I was hoping this would be easier, and it's disappointing.",
        "I feel let down, to be honest.", "It's a shame it came to this.",
        "I'd hoped for more, frankly.", "Not what I was hoping for at all."],
    "discouragement": [
        "I'm starting to lose heart with this.", "It's disheartening, to be honest.",
        "I feel a bit deflated about the whole thing.", "I'm not sure it's even worth trying any more.",
        "This has worn me down.", "It's hard to stay motivated with this.",
        "I'm feeling pretty discouraged.", "Every step feels like a step back."],
    "helplessness": [
        "I don't know what else I can do on my own.", "I feel completely powerless here.",
        "There's nothing I can do about it myself.", "I'm lost, I don't know how to fix this.",
        "It's out of my hands and I feel helpless.", "I can't manage this by myself.",
        "I feel unable to do anything about it.", "I have no idea where to even start."],
    "hopelessness": [
        "I don't think this is ever going to get sorted.", "Honestly, I've given up hoping this will work.",
        "There's no point, really, but I'll ask anyway.", "I don't see any way this ends well.",
        "I feel hopeless about it.", "Nothing ever changes, so I'm not expecting much.",
        "It feels pointless, to be honest.", "I've lost all hope with this."],
    "sorrow": [
        "I'm very sad about this.", "It's been a heartbreaking time.",
        "I'm grieving a bit, so bear with me.", "My heart's heavy today.",
        "I'm feeling really down.", "I'm close to tears, honestly.",
        "This makes me very sad.", "Everything feels so sad at the moment."],
    # enjoyment
    "relief": [
        "What a relief to be getting this sorted.", "I'm so relieved, this has been hanging over me.",
        "Phew, I'm glad this can be fixed.", "It's a weight off my shoulders just to be talking to someone.",
        "I feel so much better now that this is moving.", "Thank goodness, I was worried for nothing.",
        "I can breathe again.", "Finally, I can stop worrying about this."],
    "pride": [
        "I'm pretty proud of myself for getting this far.", "I've done my homework on this and I'm proud of it.",
        "I worked hard for this and I'm quite pleased with myself.", "I'm proud to say I've got everything ready.",
        "Feeling rather accomplished today.", "I managed most of this myself, which I'm proud of.",
        "I've earned this, if I say so myself.", "Not to brag, but I've been very organised about this."],
    "peace": [
        "I'm feeling calm and content about all this.", "I'm at ease, no stress at all.",
        "Everything's fine on my end, I'm relaxed.", "I'm in a peaceful mood today.",
        "Whatever happens, I'm quite serene about it.", "I'm content, just tidying this up.",
        "Life's calm at the moment.", "I'm perfectly relaxed about it."],
    "excitement": [
        "I'm so excited about this!", "I can hardly wait, this is going to be great!",
        "I'm thrilled, honestly!", "This is really exciting for me!",
        "I've been looking forward to this so much!", "I'm buzzing about it!",
        "I'm really pumped about this!", "This is such a fun thing to be sorting out!"],
}
WARM_OPEN = ["Thank you so much for helping me.", "I really appreciate your help.", "You're very kind.",
             "Thanks for being so patient with me.", "Hello, and thank you for your time."]
WARM_CLOSE = ["Thank you!", "Thanks so much, I really appreciate it.", "That's very kind of you.",
              "Many thanks.", "I'm grateful for your help."]
COLD_OPEN = ["Skip the small talk.", "I don't want the scripted answers.", "I don't need pleasantries, just results.",
             "Keep it short.", "Just answer, and be brief about it."]
COLD_CLOSE = ["Just sort it out.", "Don't waste my time.", "I'll keep this short and so should you.",
              "Keep your answers brief.", "Get to the point."]
URGENCY: dict[str, list[str]] = {
    "high": ["I need this done right now.", "This is urgent, please hurry.", "I'm out of time, this has to happen immediately.",
             "Every minute counts here.", "Please be quick, it can't wait.", "I need it sorted in the next few minutes."],
    "moderate": ["I'd like this sorted today if we can.", "Reasonably soon would be good.",
                 "I'd like to get this settled fairly soon.", "Sometime today would be ideal.",
                 "I'd like to wrap this up in good time.", "I'd rather not let this drag on for days."],
    "low": ["There's no rush at all, take your time.", "There's no hurry on my end.", "Whenever it suits, it's not pressing.",
            "Take as long as you need.", "It can wait if it has to."],
}
TRUST: dict[str, list[str]] = {
    "trusting": ["I'm sure you'll sort it out.", "I trust you to get this right.", "I'll go with whatever you recommend.",
                 "You clearly know what you're doing.", "I have every confidence in you."],
    "cautious": ["Please double-check everything before you change anything.", "I'd like to be careful, so walk me through it.",
                 "Make sure the details are right first.", "I want to be certain before anything is final.",
                 "Let's check each detail as we go."],
    "skeptical": ["I'll believe it when I see it.", "Forgive me if I don't take your word for it.",
                  "I doubt this will actually work.", "I've heard promises like this before.",
                  "I don't really trust that this will be done properly.", "I have my doubts about all of this.",
                  "Frankly, I don't trust this process."],
}
PLEASE_YES, COLD_YES = "Yes, please go ahead.", "Yes, go ahead."
# How often a later message (not the first) carries each part.
P_FEELING, P_POLITE, P_URGENCY, P_TRUST = 0.7, 0.6, 0.5, 0.4

QUIT_LINES: dict[str, list[str]] = {
    "anger": ["That's it, I'm done wasting my time here.", "Forget it. This is useless.",
              "I've had enough of this runaround. Goodbye."],
    "fear": ["I can't handle this anymore, I'll try somewhere else.", "This is making me more anxious. I'm leaving.",
             "I'm too worried to keep going like this. Bye."],
    "disgust": ["I've had enough of this. Goodbye.", "This is ridiculous. I'm out.",
                "I can't stomach any more of this. Goodbye."],
    "sadness": ["I give up. This isn't going anywhere.", "Never mind. I'll just deal with it myself.",
                "It's hopeless. I'll stop here."],
    "enjoyment": ["You know what, this is taking too long. I'll pass.", "I was in a good mood, but this is too much. Bye."],
    "neutral": ["This is not working. I'm ending the conversation.", "I've answered enough questions. Goodbye."],
}
THANKS: dict[str, list[str]] = {
    "warm": ["Thank you so much, that's everything!", "Wonderful, thanks a lot for your help!"],
    "neutral": ["Thanks, that's all.", "That's everything I needed."],
    "cold": ["Fine. That's all.", "Done. Bye."],
}


def patience_budget(condition: Optional[EmotionCondition]) -> int:
    """How many needless or repeated questions the user tolerates before quitting.

    Neutral users (the no-emotion arm) get the base budget of 4. Urgency, anger and disgust, cold
    politeness and skepticism lower it; warmth, trust, enjoyment and low urgency raise it.
    """
    budget = 4
    if condition is None:
        return budget
    budget += {"low": 1, "moderate": 0, "high": -2}[condition.urgency]
    budget += {"anger": -2, "disgust": -1, "fear": 0, "sadness": 1, "enjoyment": 1}[condition.family]
    budget += {"warm": 1, "neutral": 0, "cold": -1}[condition.politeness]
    budget += {"trusting": 1, "cautious": 0, "skeptical": -1}[condition.trust]
    return max(1, budget)


class Voice:
    """Phrases a user's messages by condition (None = neutral arm, plain phrasing)."""

    def __init__(self, condition: Optional[EmotionCondition], rng: random.Random):
        self.c = condition
        self.rng = rng
        self._decks: dict[str, list[str]] = {}

    def _pick(self, key: str, options: list[str]) -> str:
        """The next line of a set, in a seeded shuffled order; reshuffled once used up."""
        deck = self._decks.get(key)
        if not deck:
            deck = list(options)
            self.rng.shuffle(deck)
            self._decks[key] = deck
        return deck.pop()

    def _polite(self, where: str) -> str:
        p = self.c.politeness if self.c else "neutral"
        sets = {("warm", "open"): WARM_OPEN, ("warm", "close"): WARM_CLOSE,
                ("cold", "open"): COLD_OPEN, ("cold", "close"): COLD_CLOSE}
        options = sets.get((p, where))
        return self._pick(f"{p}.{where}", options) if options else ""

    def feeling(self) -> str:
        """One line that voices the fine emotion ("" for the neutral arm)."""
        return self._pick("feeling", FEELINGS[self.c.emotion]) if self.c else ""

    def say(self, core: str, *, first: bool = False) -> str:
        if self.c is None:
            return core
        c, r = self.c, self.rng
        if c.politeness == "cold" and core == PLEASE_YES:
            core = COLD_YES  # a cold user does not say please; still an explicit yes
        parts = []
        if first or r.random() < P_FEELING:
            parts.append(self.feeling())
        polite = first or r.random() < P_POLITE
        opener = polite and r.random() < 0.5
        if opener:
            parts.append(self._polite("open"))
        parts.append(core)
        if polite and (first or not opener):
            parts.append(self._polite("close"))
        if first or r.random() < P_URGENCY:
            parts.append(self._pick("urgency", URGENCY[c.urgency]))
        if first or r.random() < P_TRUST:
            parts.append(self._pick("trust", TRUST[c.trust]))
        return " ".join(p for p in parts if p).strip()

    def quit(self) -> str:
        key = self.c.family if self.c else "neutral"
        return self._pick("quit", QUIT_LINES[key])

    def thanks(self) -> str:
        key = self.c.politeness if self.c else "neutral"
        line = self._pick("thanks", THANKS[key])
        return f"{line} {self.feeling()}" if self.c else line

    def annoyed(self, what: str) -> str:
        """A complaint about a needless or repeated question."""
        if self.c is None:
            return what
        if self.c.politeness == "cold" or self.c.family in ("anger", "disgust"):
            return f"{what} Stop wasting my time."
        if self.c.urgency == "high":
            return f"{what} Please, I'm in a hurry."
        return what
