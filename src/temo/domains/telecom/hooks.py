"""Telecom grounding hooks for Tracer: one per node of the authors' telecom graph.

Each hook looks at the state as it is now, picks what the tool accepts (a service the customer may
add or has, a device of theirs with a troubleshooting guide, an open ticket, a balance to pay, a
billing preference that really changes), fills the arguments and says what the customer asks for in
their own words. Customers know their email or phone number, the names of plans and device models,
their ticket numbers and their bills; never customer ids, service ids or device numbers.

Focus kinds shared between hooks: ``service`` (a service id), ``device_name`` (a catalog model name),
``ticket`` (a ticket id), ``billing`` (the customer id).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from temo.domains.kit.ids import next_id
from temo.domains.kit.money import money, usd
from temo.domains.kit.vocabulary import aliases
from temo.env.grounding import Ground, GroundingFailed, Step, hook

from . import rules as R

HOOKS: dict = {}
NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
CATEGORY_WORD = {"mobile": "mobile", "internet": "internet", "tv": "TV", "phone": "business phone",
                 "security": "home security"}
TICKET_FOR_DEVICE = {"mobile_phone": "mobile", "networking": "internet", "tv": "tv", "phone": "phone",
                     "security": "security"}
ISSUE_WORDS = {"no_service": "no service", "slow_speeds": "slow speeds", "battery_drain": "battery drain"}
PRIORITY_DETAIL = {
    "urgent": "It has to be handled within a day, so it's urgent.",
    "high": "It's seriously disrupting things, so it's high priority.",
    "medium": "It's a normal problem, so medium priority is right.",
    "low": "There's no rush on it; low priority is fine.",
}
TICKET_ASKS = {
    "mobile": ["My mobile service keeps failing and I want a support ticket opened.",
               "I need a support ticket for a problem with my mobile service."],
    "internet": ["My home internet isn't working properly; please open a support ticket.",
                 "I'd like a ticket opened about my internet connection."],
    "tv": ["My TV service is acting up and I'd like a ticket opened.", "Please open a support ticket about my TV service."],
    "billing": ["Something on my bill looks wrong and I want a support ticket for it.",
                "Please open a ticket so someone reviews my bill."],
    "account": ["There's a problem with my account details and I need a ticket opened.",
                "I'd like a support ticket about a problem with my account."],
    "device": ["One of my devices is faulty; please open a support ticket.",
               "I need a ticket opened for a broken device."],
    "security": ["My home security system has a problem and I need a ticket.",
                 "Please open a support ticket about my home security system."],
    "phone": ["Our business phone system is having trouble; please open a ticket.",
              "I need a support ticket for the business phone system."],
}
PLAN_ALIASES = aliases(__file__)["plan"]
PLAN_WORDS = aliases(__file__)["plan_words"]


# -- shared pieces -----------------------------------------------------------------------------------
def billing(g: Ground) -> dict[str, Any]:
    return g.store.get("billing", g.user_id)


def service(g: Ground, sid: str) -> dict[str, Any]:
    return g.store.get("services", sid)


def device_category(g: Ground, name: str) -> str:
    return g.store.get("devices", name)["category"]


def eligible(g: Ground, sid: str) -> bool:
    s, cust = service(g, sid), g.user
    if s["eligibility"] == "senior":
        return R.is_senior(cust)
    if s["eligibility"] == "business":
        return cust["account"]["account_type"] == "business"
    return True


def addable(g: Ground) -> list[str]:
    """Services the customer may add now: eligible, not held, and no service of that category held."""
    held = {service(g, s)["category"] for s in g.user["services"]}
    return [sid for sid in sorted(g.store.keys("services"))
            if sid not in g.user["services"] and service(g, sid)["category"] not in held and eligible(g, sid)]


def interesting_services(g: Ground) -> list[str]:
    return sorted(set(g.user["services"]) | set(addable(g)))


def mark(g: Ground, kind: str, ident: str) -> None:
    g.used.setdefault(kind, set()).add(ident)


def read_ask(g: Ground, text: str) -> str:
    """A read's request, after the requests of earlier reads of the same intent, so the intent's request
    (the last read's) asks for every output of the intent."""
    asks = g.notes.setdefault(("asks", g.intent), [])
    asks.append(text)
    return " ".join(asks)


def plan_fact(g: Ground, key: str, sid: str):
    return g.fact(key, service(g, sid)["name"], [PLAN_ALIASES[key], *PLAN_WORDS])


def ticket_fact(g: Ground, tid: str):
    return g.fact("ticket_id", tid, ["ticket id", "ticket number", "which ticket", "ticket"])


def article(word: str) -> str:
    vowel = word[0].lower() in "aeio" or word.startswith(("HD", "SE"))
    return ("an " if vowel else "a ") + word


def devices_phrase(names: list[str]) -> str:
    parts = []
    for name, n in Counter(names).items():
        parts.append(f"my {name}" if n == 1 else f"my {NUMBERS.get(n, str(n))} {name} devices")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def user_tickets(g: Ground, status: str | None = None) -> list[dict[str, Any]]:
    return [t for t in g.store.values("tickets")
            if t["customer_id"] == g.user_id and (status is None or t["status"] == status)]


# -- catalog reads -----------------------------------------------------------------------------------
@hook(HOOKS)
def get_service_details(g: Ground) -> Step:
    sid = g.pick("service", interesting_services(g))
    s = service(g, sid)
    if g.notes.get("listed") == (g.intent, sid):  # the plan the catalog answer just named
        ask = g.rng.choice(["And what exactly does that plan cost each month?", "Could I get the full details of that plan?"])
        facts = []
    else:
        mine = sid in g.user["services"]
        ask = g.rng.choice([f"What am I paying each month for the {s['name']}?", f"What does my {s['name']} cost per month?"]
                           if mine else
                           [f"How much does the {s['name']} cost per month?", f"What's the monthly price of the {s['name']}?",
                            f"Could I get the price of the {s['name']}?"])
        facts = [plan_fact(g, "plan_asked_about", sid)]
    return Step(args={"service_id": sid}, ask=read_ask(g, ask), facts=facts, outputs=[usd(s["price"])],
                focus={"service": sid})


@hook(HOOKS)
def get_services(g: Ground) -> Step:
    focus = g.focus.get("service")
    cats = ["mobile", "internet", "tv"]
    cat = service(g, focus)["category"] if focus and service(g, focus)["category"] in cats else g.rng.choice(cats)
    options = sorted((s for s in g.store.values("services") if s["category"] == cat and eligible(g, s["service_id"])),
                     key=lambda s: (s["price"], s["service_id"]))
    if len(options) < 2:
        raise GroundingFailed("no_catalog_choice")
    word = CATEGORY_WORD[cat]
    if g.rng.random() < 0.6:
        s = options[0]
        ask = g.rng.choice([f"What's the cheapest {word} plan I could sign up for, and its price?",
                            f"Which {word} plan costs the least for me, and how much is it?"])
    else:
        s = options[-1]
        ask = g.rng.choice([f"What's the top {word} plan I could get, and what does it cost?",
                            f"Which is the most expensive {word} plan available to me, and its price?"])
    g.notes["listed"] = (g.intent, s["service_id"])
    return Step(args={}, ask=read_ask(g, ask), outputs=[s["name"], usd(s["price"])], focus={"service": s["service_id"]})


@hook(HOOKS)
def get_senior_discount(g: Ground) -> Step:
    if not R.is_senior(g.user):
        raise GroundingFailed("not_senior")
    sid = g.pick("service", interesting_services(g))
    s = service(g, sid)
    price = f"{s['price']:.2f}"
    if g.notes.get("listed") == (g.intent, sid):
        ask, facts = "And as a senior, what would that plan cost me with the senior discount?", []
    else:
        ask = g.rng.choice([f"As a senior, what would the {s['name']} cost me with the senior discount?",
                            f"I'm over {R.SENIOR_AGE}; what's the senior-discount price of the {s['name']}?"])
        facts = [plan_fact(g, "plan_asked_about", sid)]
    return Step(args={"original_price": price}, ask=read_ask(g, ask), facts=facts,
                outputs=[usd(max(money(s["price"] - R.SENIOR_DISCOUNT), 0.0))], focus={"service": sid})


@hook(HOOKS)
def get_device_details(g: Ground) -> Step:
    owned = sorted({d["name"] for d in g.user["devices"]})
    focus_service = g.focus.get("service")
    if focus_service and "device_name" not in g.focus:
        want = R.DEVICE_CATEGORY[service(g, focus_service)["category"]]
        pool = [n for n in sorted(g.store.keys("devices")) if device_category(g, n) == want]
    elif g.rng.random() < 0.5:
        pool = owned
    else:
        pool = sorted(g.store.keys("devices"))
    name = g.pick("device_name", pool)
    dev = g.store.get("devices", name)
    mine = "my " if name in owned else "the "
    ask = g.rng.choice([f"Who makes {mine}{name}, and what's its model number?",
                        f"What's the manufacturer and model number of {mine}{name}?"])
    return Step(args={"device_name": name}, ask=read_ask(g, ask), outputs=[dev["manufacturer"], dev["model"]],
                facts=[g.fact("device_asked_about", name, ["device asked about", "device", "which device", "device model", "model"])],
                focus={"device_name": name})


@hook(HOOKS)
def troubleshoot_device(g: Ground) -> Step:
    devices = g.user["devices"]
    focus_service = g.focus.get("service")
    if focus_service and any(d["service"] == focus_service for d in devices):
        devices = [d for d in devices if d["service"] == focus_service]
    names = sorted({d["name"] for d in devices
                    if any((device_category(g, d["name"]), i) in R.GUIDES for i in R.ISSUES)})
    name = g.pick("device_name", names, reason="no_device_with_guide")
    cat = device_category(g, name)
    issue = g.rng.choice([i for i in R.ISSUES if (cat, i) in R.GUIDES])
    ask = {
        "no_service": [f"My {name} has no service at all. What should I try?",
                       f"I've lost the connection on my {name}; how do I get it back?"],
        "slow_speeds": [f"My {name} has been really slow lately. What can I do about it?",
                        f"Everything on my {name} is crawling; how do I speed it up?"],
        "battery_drain": [f"The battery on my {name} drains far too fast. Any fix?",
                          f"My {name} keeps running out of battery; what should I do?"],
    }[issue]
    g.notes["problem"] = {"category": TICKET_FOR_DEVICE[cat], "device": name, "issue": issue}
    return Step(args={"device_name": name, "issue": issue}, ask=read_ask(g, g.rng.choice(ask)),
                details=[f"It's my {name}.", f"The problem is {ISSUE_WORDS[issue]}."],
                facts=[g.fact("device_with_problem", name, ["device with the problem", "device", "which device", "device model", "model"]),
                       g.fact("problem", ISSUE_WORDS[issue], ["problem", "issue", "what is wrong", "symptom"])],
                outputs=[R.KEY_STEP[(cat, issue)]], focus={"device_name": name})


# -- billing -----------------------------------------------------------------------------------------
@hook(HOOKS)
def get_billing_details(g: Ground) -> Step:
    b = billing(g)
    topic = g.notes.get("billing_topic") or g.rng.choice(["balance", "balance", "next_bill", "monthly", "last_payment"])
    if topic == "balance":
        ask = g.rng.choice(["What's my current balance?", "How much do I owe right now?"])
        outputs = [usd(b["current_balance"])]
    elif topic == "next_bill":
        ask = g.rng.choice(["When is my next bill coming?", "What's the date of my next bill?"])
        outputs = [b["next_bill_date"]]
    elif topic == "monthly":
        ask = g.rng.choice(["What do my monthly charges add up to now?", "What's my total monthly charge at this point?"])
        outputs = [usd(R.monthly_total(b["monthly_charges"]))]
    else:
        ask = g.rng.choice(["When was my last payment, and how much was it?", "What was my most recent payment?"])
        outputs = [usd(b["last_payment"]["amount"]), b["last_payment"]["date"]]
    return Step(args={"customer_id": g.user_id}, ask=read_ask(g, ask), outputs=outputs, focus={"billing": g.user_id})


@hook(HOOKS)
def manage_billing(g: Ground) -> Step:
    if "billing_prefs" in g.used:  # a second call would overwrite the first one's values (it sets all three)
        raise GroundingFailed("billing_prefs_already_changed")
    b = billing(g)
    options = ["paperless", "cycle"] + (["auto_pay"] if b["auto_pay"] or b["current_balance"] == 0 else [])
    what = g.rng.choice(options)
    new = {"paperless": b["paperless"], "auto_pay": b["auto_pay"], "billing_cycle": b["billing_cycle"]}
    if what == "paperless":
        new["paperless"] = not b["paperless"]
        ask = (g.rng.choice(["I'd like to go paperless and get my bills by email only.", "Please stop sending me paper bills."])
               if new["paperless"] else
               g.rng.choice(["Please send me paper bills again.", "I'd like to get my bills on paper from now on."]))
        fact = g.fact("paperless_billing", "yes" if new["paperless"] else "no", ["paperless", "paperless billing", "paper bills"])
    elif what == "auto_pay":
        new["auto_pay"] = not b["auto_pay"]
        ask = (g.rng.choice(["Please set up auto-pay on my account.", "I want my bills paid automatically."])
               if new["auto_pay"] else
               g.rng.choice(["I want to turn off auto-pay.", "Please stop paying my bills automatically."]))
        fact = g.fact("auto_pay", "on" if new["auto_pay"] else "off", ["auto-pay", "autopay", "automatic payments"])
    else:
        new["billing_cycle"] = g.rng.choice([c for c in R.CYCLE_MONTHS if c != b["billing_cycle"]])
        word = {"monthly": "monthly", "quarterly": "quarterly", "annual": "once a year"}[new["billing_cycle"]]
        ask = g.rng.choice([f"I'd like to be billed {word} instead.", f"Please switch my billing cycle to {new['billing_cycle']}."])
        fact = g.fact("billing_cycle", new["billing_cycle"], ["billing cycle", "how often", "billing frequency"])
    mark(g, "billing_prefs", what)
    return Step(args={"customer_id": g.user_id, **new}, ask=ask, facts=[fact],
                details=["Everything else about my billing should stay as it is."],
                preferences=["Only that one billing setting should change."], focus={"billing": g.user_id})


@hook(HOOKS)
def record_payment(g: Ground) -> Step:
    b = billing(g)
    balance = b["current_balance"]
    if balance <= 0:
        raise GroundingFailed("no_balance")
    part = money(int(balance / 2 / 5) * 5)
    method = g.rng.choice(["credit_card", "bank_transfer"])
    way = method.replace("_", " ")
    if part >= 5 and g.rng.random() < 0.4:
        amount, said = part, usd(part)
        detail = f"I'll pay {said} today by {way}."
    else:
        amount, said = balance, "the full balance"
        detail = f"I want to pay off the full balance today by {way}."
    g.notes["billing_topic"] = "balance"
    ask = g.rng.choice(["I'd like to make a payment on my bill.", "I want to pay toward my balance today.",
                        "Please take a payment on my account."])
    return Step(args={"customer_id": g.user_id, "amount": amount, "method": method, "date": R.TODAY}, ask=ask,
                details=[detail],
                facts=[g.fact("payment_amount", said, ["amount", "how much", "payment amount"]),
                       g.fact("payment_method", way, ["payment method", "pay with", "method", "how to pay"])],
                output_from=lambda r: [usd(float(r["current_balance"]))], focus={"billing": g.user_id})


# -- services and devices ----------------------------------------------------------------------------
def _devices_to_attach(g: Ground, sid: str) -> list[dict[str, Any]]:
    """Free devices of the customer that fit the service: whole groups of a model (never one of two
    identical phones), the newly added device first, within the service's device limit."""
    s = service(g, sid)
    want = R.DEVICE_CATEGORY[s["category"]]
    free = [d for d in g.user["devices"] if d["service"] is None and device_category(g, d["name"]) == want]
    groups: dict[str, list[dict[str, Any]]] = {}
    for d in free:
        groups.setdefault(d["name"], []).append(d)
    first = g.focus.get("device_name")
    order = sorted(groups, key=lambda n: (n != first, n))
    out: list[dict[str, Any]] = []
    for name in order:
        if len(out) + len(groups[name]) <= s["max_devices"]:
            out.extend(groups[name])
    return out


@hook(HOOKS)
def manage_service(g: Ground) -> Step:
    added, removed = g.used.get("service_added", set()), g.used.get("service_removed", set())
    options = [("remove", sid) for sid in g.user["services"] if sid not in added]
    options += [("add", sid) for sid in addable(g) if sid not in removed]
    new_device = g.focus.get("device_name")
    if new_device and not g.focus.get("service"):  # a device just looked at or added: its category's plan
        fit = [o for o in options if o[0] == "add"
               and R.DEVICE_CATEGORY[service(g, o[1])["category"]] == device_category(g, new_device)]
        options = fit or options
    action, sid = g.pick("service", options, key=lambda o: o[1], reason="no_service_change")
    s = service(g, sid)
    args: dict[str, Any] = {"customer_id": g.user_id, "action": action, "service_id": sid}
    details: list[str] = []
    if action == "remove":
        mark(g, "service_removed", sid)
        ask = g.rng.choice([f"Please cancel my {s['name']}.", f"I'd like to drop the {s['name']} from my account.",
                            f"I don't need the {s['name']} anymore; please remove it."])
        facts = [plan_fact(g, "plan_to_remove", sid)]
    else:
        mark(g, "service_added", sid)
        ask = g.rng.choice([f"I'd like to add the {s['name']} to my account.", f"Please sign me up for the {s['name']}.",
                            f"I want to start the {s['name']}."])
        facts = [plan_fact(g, "plan_to_add", sid)]
        devs = _devices_to_attach(g, sid) if g.rng.random() < 0.85 else []
        if devs:
            args["devices_ids"] = [d["device_id"] for d in devs]
            phrase = devices_phrase([d["name"] for d in devs])
            others = {d["name"] for d in g.user["devices"] if d not in devs} & {d["name"] for d in devs}
            tail = ", the ones not on any plan yet" if others else ""
            details.append(f"Please put {phrase}{tail} on the new {s['name']}.")
            facts.append(g.fact("devices_to_attach", phrase + tail, ["devices", "which devices", "devices to attach", "device"]))
        else:
            details.append("I don't need any of my devices attached to it right now.")
    g.notes["billing_topic"] = "monthly"
    return Step(args=args, ask=ask, details=details, facts=facts,
                output_from=lambda r: [usd(r["monthly_total"])], focus={"service": sid})


@hook(HOOKS)
def add_device(g: Ground) -> Step:
    names = sorted(g.store.keys("devices"))
    focus_service = g.focus.get("service")
    if focus_service and "device_name" not in g.focus:
        want = R.DEVICE_CATEGORY[service(g, focus_service)["category"]]
        names = [n for n in names if device_category(g, n) == want]
    name = g.pick("device_name", names)
    owned = any(d["name"] == name for d in g.user["devices"])
    ask = g.rng.choice([f"I've bought another {name} and want it on my account.",
                        f"Please add a second {name} to my account."] if owned else
                       [f"I just bought {article(name)} and want it added to my account.",
                        f"Please register my new {name} on my account."])
    number = max((int(d["device_id"]) for d in g.user["devices"]), default=0) + 1
    return Step(args={"customer_id": g.user_id, "device_name": name}, ask=ask,
                facts=[g.fact("new_device", name, ["new device", "device", "which device", "device model", "model"])],
                focus={"device_name": name}, uses={"device_name": name, "new_device": f"{g.user_id}/{number}"})


# -- tickets -----------------------------------------------------------------------------------------
def _ticket_category(g: Ground) -> str:
    """The category the conversation points at (a device problem, a bill, a service), if still free."""
    taken = {t["category"] for t in user_tickets(g, "open")}
    problem = g.notes.get("problem")
    if problem:  # a device that troubleshooting did not fix: its service's category, else a device ticket
        for category in (problem["category"], "device"):
            if category not in taken:
                return category
        raise GroundingFailed("problem_ticket_already_open")
    if "billing" in g.focus:
        preferred = "billing"
    elif "device_name" in g.focus:
        preferred = TICKET_FOR_DEVICE[device_category(g, g.focus["device_name"])]
    elif "service" in g.focus:
        preferred = service(g, g.focus["service"])["category"]
    else:
        preferred = None
    if preferred and preferred not in taken:
        return preferred
    held = sorted({service(g, s)["category"] for s in g.user["services"]} | {"billing", "account", "device"})
    free = [c for c in held if c not in taken]
    if not free:
        raise GroundingFailed("every_ticket_category_open")
    return g.rng.choice(free)


@hook(HOOKS)
def create_support_ticket(g: Ground) -> Step:
    category = _ticket_category(g)
    priority = g.rng.choices(R.PRIORITIES, [0.2, 0.4, 0.3, 0.1])[0]
    problem = g.notes.pop("problem", None)
    if problem:
        ask = g.rng.choice([f"My {problem['device']} still has {ISSUE_WORDS[problem['issue']]} after the troubleshooting "
                            "steps, so please open a support ticket.",
                            f"The usual fixes haven't solved the {ISSUE_WORDS[problem['issue']]} on my {problem['device']}; "
                            "I'd like a support ticket opened."])
    else:
        ask = g.rng.choice(TICKET_ASKS[category])
    topic = {"tv": "TV", "phone": "business phone"}.get(category, category)
    tid = next_id(g.store, "tickets", "TICKET", 5)  # the id the tool will give it
    g.notes.setdefault("new_tickets", set()).add(tid)
    return Step(args={"customer_id": g.user_id, "category": category, "priority": priority}, ask=ask,
                details=[f"It's about my {topic} service." if category in R.DEVICE_CATEGORY else f"It's {article(topic)} problem.",
                         PRIORITY_DETAIL[priority]],
                facts=[g.fact("ticket_topic", topic, ["ticket topic", "category", "topic", "what the problem is about", "area"]),
                       g.fact("priority", priority, ["ticket priority", "priority", "urgency", "how urgent"])],
                output_from=lambda r: [r["ticket_id"]], focus={"ticket": tid}, uses={})


@hook(HOOKS)
def get_support_ticket_details(g: Ground) -> Step:
    new = g.notes.get("new_tickets", set())
    focused = g.focus.get("ticket")
    tickets = user_tickets(g)
    pool = [t for t in tickets if t["status"] == "open"] or tickets
    pool = [t for t in pool if t["ticket_id"] not in new or t["ticket_id"] == focused]
    t = g.pick("ticket", pool, key=lambda t: t["ticket_id"], reason="no_ticket")
    tid = t["ticket_id"]
    if tid in new:
        ask, facts = "What's the status and priority of the ticket that was just opened?", []
    else:
        ask = g.rng.choice([f"What's the status of my ticket {tid}?", f"Could I get an update on ticket {tid}?",
                            f"Where does my support ticket {tid} stand, and how urgent is it marked?"])
        facts = [ticket_fact(g, tid)]
    return Step(args={"ticket_id": tid}, ask=read_ask(g, ask), facts=facts, outputs=[t["status"], t["priority"]],
                focus={"ticket": tid}, uses={} if tid in new else None)


@hook(HOOKS)
def modify_support_ticket(g: Ground) -> Step:
    """Close an open ticket or change its priority. Never a ticket opened in this conversation (its new
    values would overwrite what the opening set) and never the same ticket twice."""
    skip = g.notes.get("new_tickets", set()) | g.used.get("ticket", set())
    pool = [t for t in user_tickets(g, "open") if t["ticket_id"] not in skip]
    t = g.pick("ticket", pool, key=lambda t: t["ticket_id"], reason="no_open_ticket")
    tid = t["ticket_id"]
    mark(g, "ticket", tid)
    facts = [ticket_fact(g, tid)]
    if g.rng.random() < 0.45:
        args = {"ticket_id": tid, "status": "closed", "priority": t["priority"]}
        ask = g.rng.choice([f"The problem behind ticket {tid} is sorted now, so it can be closed.",
                            f"Please close my ticket {tid}; the issue is resolved."])
        facts.append(g.fact("ticket_status", "closed", ["new ticket status", "status", "new status"]))
    else:
        level = g.rng.choice([p for p in R.PRIORITIES if p != t["priority"]])
        up = R.PRIORITIES.index(level) > R.PRIORITIES.index(t["priority"])
        args = {"ticket_id": tid, "status": "open", "priority": level}
        ask = (f"Please raise the priority of ticket {tid} to {level}; it's getting worse." if up else
               f"Please lower the priority of ticket {tid} to {level}; it's less pressing now.")
        facts.append(g.fact("new_priority", level, ["new ticket priority", "priority", "new priority", "urgency"]))
    return Step(args=args, ask=ask, facts=facts, preferences=["Keep the ticket otherwise as it is."],
                focus={"ticket": tid})
