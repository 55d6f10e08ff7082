"""Look-ups and checks behind the movie tools: every failure is a ToolError that says what to do."""
from __future__ import annotations

from typing import Any, Iterable

from temo.domains.kit.lookup import find_one_by, require, require_id
from temo.domains.kit.money import money, usd
from temo.env import Store, ToolError

from . import rules as R


def theater(db: Store, theater_id: str) -> dict[str, Any]:
    return require_id(db, "theaters", theater_id, prefix="TH", looks_like="theater ids look like 'TH001'; list_theaters gives them",
                      missing="theater {key!r} not found{hint}; use list_theaters to find the id")


def movie(db: Store, movie_id: str) -> dict[str, Any]:
    return require(db, "movies", movie_id, "movie")


def booking(db: Store, booking_id: str) -> dict[str, Any]:
    return require_id(db, "bookings", booking_id, prefix="BKG", looks_like="booking numbers look like 'BKG0123'",
                      missing="booking {key!r} not found{hint}; ask the customer to check the booking number")


def show(db: Store, theater_id: str, show_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(theater, show) for a show of that theater."""
    th = theater(db, theater_id)
    for day in th["dates"].values():
        for s in day["shows"]:
            if s["show_id"] == show_id:
                return th, s
    raise ToolError(f"show {show_id!r} is not a show of theater {theater_id}; use list_shows to find the show id")


def bookable(s: dict[str, Any], action: str) -> None:
    """Booking, previewing and re-seating need a scheduled show that has not started yet."""
    if s["status"] != "scheduled":
        raise ToolError(f"show {s['show_id']} is {s['status']}; only scheduled shows can be {action}")
    if R.minutes_until(s["date"], s["start_time_local"]) <= 0:
        raise ToolError(f"show {s['show_id']} has already started; it can no longer be {action}")


def outside_cutoff(s: dict[str, Any], action: str) -> None:
    left = R.minutes_until(s["date"], s["start_time_local"])
    if left < R.CHANGE_CUTOFF_MINUTES:
        raise ToolError(f"show {s['show_id']} starts in {max(left, 0)} minutes; bookings can be {action} only until "
                        f"{R.CHANGE_CUTOFF_MINUTES} minutes before the show")


def taken_seats(db: Store, show_id: str, skip: str = "") -> set[str]:
    """Seats held by confirmed bookings of the show (other than booking ``skip``)."""
    out: set[str] = set()
    for b in db.values("bookings"):
        if b["show_id"] == show_id and b["status"] == "confirmed" and b["booking_id"] != skip:
            out.update(x["seat_id"] for x in b["seats"])
    return out


def seat_request(db: Store, th: dict[str, Any], s: dict[str, Any], seats: list[dict[str, str]], skip: str = "") -> list[dict[str, str]]:
    """Check a seat list: 1..MAX_SEATS distinct seats that exist in the show's auditorium and are free."""
    if not seats:
        raise ToolError("seats must name at least one seat")
    if len(seats) > R.MAX_SEATS:
        raise ToolError(f"a booking holds at most {R.MAX_SEATS} seats; larger groups are handled by group sales "
                        "(transfer to a human agent)")
    ids = [x["seat_id"].strip().upper() for x in seats]
    if len(set(ids)) != len(ids):
        raise ToolError("the same seat is listed twice")
    index = R.seat_index(th["auditoriums"][s["auditorium_id"]])
    unknown = [i for i in ids if i not in index]
    if unknown:
        raise ToolError(f"seat(s) {', '.join(unknown)} do not exist in {th['auditoriums'][s['auditorium_id']]['name']}; "
                        "check the seat map with get_theater_details or get_seat_availability")
    busy = sorted(set(ids) & taken_seats(db, s["show_id"], skip))
    if busy:
        raise ToolError(f"seat(s) {', '.join(busy)} are already booked for this show; pick free seats "
                        "(get_seat_availability lists them)")
    out = [{"seat_id": i, "ticket_type": x["ticket_type"]} for i, x in zip(ids, seats)]
    return sorted(out, key=lambda x: seat_order(x["seat_id"]))


def seat_order(seat_id: str) -> tuple[str, int]:
    """Seats are kept in seat-map order (row, then number), whatever order the caller lists them in."""
    row = seat_id.rstrip("0123456789")
    return row, int(seat_id[len(row):] or 0)


def concessions(th: dict[str, Any], items: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Check concession lines against the theater's menu: item, name, size and price must all match it."""
    out = []
    menu = th["concessions_menu"]
    for c in items:
        item = menu.get(c["item_id"])
        if item is None:
            raise ToolError(f"concession item {c['item_id']!r} is not on the menu of {th['name']}; "
                            "get_theater_details lists the menu")
        if c["name"].strip().lower() != item["name"].lower():
            raise ToolError(f"item {c['item_id']} is called {item['name']!r}, not {c['name']!r}")
        if c["size"] not in item["sizes"]:
            raise ToolError(f"{item['name']} comes in {', '.join(sorted(item['sizes']))}, not {c['size']!r}")
        if abs(c["price_each"] - item["sizes"][c["size"]]) > 0.005:
            raise ToolError(f"{item['name']} ({c['size']}) costs {usd(item['sizes'][c['size']])} at this theater, "
                            f"not {usd(c['price_each'])}")
        if not 1 <= c["quantity"] <= R.MAX_CONCESSION_QUANTITY:
            raise ToolError(f"quantity must be between 1 and {R.MAX_CONCESSION_QUANTITY}")
        out.append({"item_id": c["item_id"], "name": item["name"], "size": c["size"], "quantity": c["quantity"],
                    "price_each": item["sizes"][c["size"]]})
    if len({(c["item_id"], c["size"]) for c in out}) != len(out):
        raise ToolError("the same item and size is listed twice; give it once with the total quantity")
    return sorted(out, key=lambda c: (c["item_id"], c["size"]))


def customer_by_email(db: Store, email: str) -> tuple[str, dict[str, Any]]:
    """The customer profile with this email; bookings through the desk need an existing profile."""
    return find_one_by(db, "customers", "customer profile", email=email.strip())


def same(a: str | None, b: str | None) -> bool:
    return (a or "").strip().lower() == (b or "").strip().lower()


def digits(phone: str) -> str:
    return "".join(ch for ch in phone if ch.isdigit())


def check_customer(db: Store, given: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The customer profile the booking is for; the name, phone and loyalty id must match it."""
    cid, c = customer_by_email(db, given["email"])
    name = given["name"]
    if not (same(name["first_name"], c["name"]["first_name"]) and same(name["last_name"], c["name"]["last_name"])):
        raise ToolError("the name does not match the customer profile of that email; check the customer's details")
    if digits(given["phone"]) != digits(c["phone"]):
        raise ToolError("the phone number does not match the customer profile of that email")
    loyalty = given.get("loyalty_id")
    if loyalty and not same(loyalty, c["loyalty_id"]):
        raise ToolError(f"loyalty id {loyalty!r} does not belong to this customer")
    return cid, c


def charge(db: Store, cid: str, pay: dict[str, Any], payment_id: str) -> dict[str, Any]:
    """Validate one payment against the customer's methods on file, draw a gift card down, and
    return the payment-history entry."""
    m = pay["method"]
    if m["source"] == "cash":
        raise ToolError("cash can only be paid at the theater's box office, not through this desk; "
                        "use a card, wallet or gift card on file")
    amount = money(pay["amount"])
    if amount <= 0 or abs(amount - pay["amount"]) > 1e-9:
        raise ToolError("payment amounts must be positive amounts in cents, such as 25.5")
    customer = db.get("customers", cid)
    method = customer["payment_methods"].get(m["payment_method_id"])
    if method is None:
        raise ToolError(f"payment method {m['payment_method_id']!r} is not on file for this customer; only methods "
                        "used on the customer's earlier bookings can be charged (see their payment history)")
    if method["source"] != m["source"]:
        raise ToolError(f"payment method {m['payment_method_id']} is a {method['source']}, not a {m['source']}")
    info = m.get("extra_info") or {}
    for key in ("brand", "last_four", "provider"):
        if info.get(key) and not same(str(info[key]), str(method.get(key) or "")):
            raise ToolError(f"the {key.replace('_', ' ')} {info[key]!r} does not match payment method {m['payment_method_id']}")
    if method["source"] == "gift_card":
        if method["balance"] + 0.005 < amount:
            raise ToolError(f"the gift card ending in {method['last_four']} has {usd(method['balance'])} left, "
                            f"not enough for {usd(amount)}; split the payment or use another method")
        rec = db.edit("customers", cid)
        rec["payment_methods"][method["payment_method_id"]]["balance"] = money(method["balance"] - amount)
    extra = {k: method[k] for k in ("brand", "last_four", "provider") if method.get(k) is not None}
    return {"payment_id": payment_id, "amount": amount,
            "method": {"source": method["source"], "payment_method_id": method["payment_method_id"], "extra_info": extra},
            "created_at": R.NOW}


def refund(db: Store, rec: dict[str, Any], amount: float) -> float:
    """Refund ``amount`` of a booking (``rec``, already being edited) to its payment methods, newest charge
    first, each at most what it paid net; gift cards are credited at once. Returns the refunded total."""
    net: dict[str, float] = {}
    method_of: dict[str, dict[str, Any]] = {}
    order: list[str] = []
    for p in rec["payment_history"]:
        pid = p["method"]["payment_method_id"]
        if pid not in net:
            order.append(pid)
        net[pid] = money(net.get(pid, 0.0) + p["amount"])
        method_of[pid] = p["method"]
    left, done = money(amount), 0.0
    n = sum(1 for p in rec["payment_history"] if p["amount"] < 0)
    for pid in reversed(order):
        part = money(min(left, net[pid]))
        if part <= 0:
            continue
        n += 1
        rec["payment_history"].append({"payment_id": f"{rec['booking_id']}-R{n}", "amount": -part,
                                       "method": dict(method_of[pid]), "created_at": R.NOW})
        if method_of[pid]["source"] == "gift_card":
            cust = db.edit("customers", rec["customer_id"])
            pm = cust["payment_methods"].get(pid)
            if pm is not None:
                pm["balance"] = money(pm["balance"] + part)
        left, done = money(left - part), money(done + part)
        if left <= 0:
            break
    return done
