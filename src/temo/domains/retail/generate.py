"""Generate the retail database: 527 users, 50 products, 1,075 orders (paper Table 15).

Deterministic for a seed: everything comes from one `random.Random`, never the clock.
"""
from __future__ import annotations

import itertools
import random
from typing import Any

from temo.domains.kit import people

N_USERS = 527
N_PRODUCTS = 50
N_ORDERS = 1075

COLORS = ["black", "white", "red", "blue", "green", "grey", "navy", "beige", "brown", "purple"]
APPAREL = ["XS", "S", "M", "L", "XL", "XXL"]
SHOE = ["6", "7", "8", "9", "10", "11", "12"]

# (product name, base price, {option: values})
CATALOG: list[tuple[str, float, dict[str, list[str]]]] = [
    ("T-Shirt", 28, {"color": COLORS[:7], "size": APPAREL, "fit": ["regular", "slim", "relaxed"]}),
    ("Hiking Boots", 160, {"color": ["black", "brown", "grey", "green"], "size": SHOE, "material": ["leather", "synthetic"]}),
    ("Water Bottle", 24, {"capacity": ["500ml", "750ml", "1000ml"], "material": ["stainless steel", "plastic", "glass"], "color": COLORS[:5]}),
    ("Running Shoes", 115, {"size": SHOE, "color": ["black", "white", "red", "blue", "yellow"], "material": ["mesh", "leather", "knit"]}),
    ("Backpack", 85, {"color": ["black", "grey", "navy", "green", "red"], "size": ["small", "medium", "large"], "material": ["nylon", "polyester", "leather"]}),
    ("Desk Lamp", 55, {"color": ["black", "white", "silver"], "power source": ["AC adapter", "USB", "battery"], "brightness": ["low", "medium", "high"]}),
    ("Wireless Earbuds", 120, {"color": ["black", "white", "blue"], "battery life": ["4 hours", "6 hours", "8 hours"], "water resistance": ["IPX4", "IPX7", "none"]}),
    ("Laptop", 1250, {"screen size": ["13-inch", "15-inch", "17-inch"], "processor": ["i5", "i7", "i9"], "ram": ["8GB", "16GB", "32GB"], "storage": ["256GB SSD", "512GB SSD", "1TB SSD"]}),
    ("Office Chair", 320, {"material": ["mesh", "leather", "fabric"], "color": ["black", "grey", "blue", "red"], "armrest": ["fixed", "adjustable", "none"]}),
    ("Coffee Maker", 130, {"color": ["black", "stainless steel", "white"], "capacity": ["4 cups", "8 cups", "12 cups"], "type": ["drip", "espresso", "french press"]}),
    ("Bluetooth Speaker", 95, {"color": ["black", "blue", "red", "green"], "battery life": ["10 hours", "20 hours", "30 hours"], "water resistance": ["yes", "no"]}),
    ("Smart Watch", 310, {"color": ["black", "silver", "gold", "rose gold"], "band material": ["silicone", "leather", "metal"], "display": ["LCD", "AMOLED"]}),
    ("Jigsaw Puzzle", 38, {"pieces": ["500", "1000", "1500", "2000"], "theme": ["animals", "landscape", "art", "cities"], "difficulty": ["beginner", "intermediate", "expert"]}),
    ("Yoga Mat", 45, {"thickness": ["4mm", "6mm", "8mm"], "material": ["PVC", "TPE", "natural rubber"], "color": ["pink", "blue", "green", "purple", "black"]}),
    ("Electric Kettle", 72, {"capacity": ["1L", "1.5L", "2L"], "material": ["glass", "stainless steel", "plastic"], "color": ["white", "black", "silver"]}),
    ("Sunglasses", 125, {"frame color": ["black", "brown", "silver", "gold"], "lens color": ["green", "brown", "grey", "blue"], "lens type": ["polarized", "non-polarized"]}),
    ("Mechanical Keyboard", 175, {"switch type": ["linear", "tactile", "clicky"], "backlight": ["none", "white", "RGB"], "size": ["full size", "80 percent", "60 percent"]}),
    ("Gaming Mouse", 78, {"color": ["black", "white", "RGB"], "sensor type": ["optical", "laser"], "connectivity": ["wired", "wireless"]}),
    ("Headphones", 230, {"type": ["on-ear", "over-ear", "in-ear"], "connectivity": ["wired", "wireless"], "color": ["black", "white", "red", "blue"]}),
    ("Air Purifier", 260, {"room size": ["small", "medium", "large"], "filter type": ["HEPA", "carbon", "ionic"], "features": ["quiet operation", "night mode", "smart sensors"]}),
    ("Vacuum Cleaner", 410, {"type": ["upright", "canister", "robotic"], "bagged or bagless": ["bagged", "bagless"], "features": ["pet hair removal", "cordless", "HEPA filter"]}),
    ("Tea Kettle", 58, {"material": ["ceramic", "glass", "stainless steel"], "capacity": ["1 liter", "1.5 liters", "2 liters"], "stovetop": ["gas", "electric", "induction"]}),
    ("Skateboard", 120, {"deck material": ["maple", "bamboo", "plastic"], "length": ["28 inch", "31 inch", "34 inch"], "design": ["plain", "graphic", "custom"]}),
    ("Tablet", 420, {"screen size": ["8-inch", "10-inch", "12-inch"], "storage": ["32GB", "64GB", "128GB"], "color": ["black", "silver", "gold"]}),
    ("Digital Camera", 1750, {"resolution": ["20MP", "24MP", "30MP"], "zoom": ["3x", "5x", "10x"], "storage": ["SD card", "CF card"]}),
    ("Bicycle", 930, {"frame size": ["small", "medium", "large"], "color": ["black", "red", "blue", "green"], "type": ["road", "mountain", "hybrid"]}),
    ("Action Camera", 340, {"resolution": ["1080p", "4K", "5K"], "waterproof": ["yes", "no"], "color": ["black", "silver"]}),
    ("Garden Hose", 65, {"length": ["25ft", "50ft", "100ft"], "material": ["rubber", "vinyl", "latex"], "color": ["green", "blue", "black"]}),
    ("Camping Tent", 260, {"size": ["2-person", "4-person", "6-person"], "material": ["nylon", "polyester", "canvas"], "season": ["3-season", "4-season"]}),
    ("Sleeping Bag", 135, {"temperature rating": ["0 F", "20 F", "40 F"], "insulation": ["synthetic", "down"], "color": ["red", "blue", "green", "orange"]}),
    ("Fleece Jacket", 92, {"size": APPAREL[:5], "color": ["black", "navy", "red", "grey"], "zipper": ["full", "half"]}),
    ("Rain Jacket", 112, {"size": APPAREL[:5], "color": ["yellow", "blue", "black", "green"], "hood": ["detachable", "fixed"]}),
    ("Wall Clock", 48, {"diameter": ["10 inches", "12 inches", "14 inches"], "color": ["black", "white", "wood"], "type": ["analog", "digital"]}),
    ("Cycling Helmet", 88, {"size": ["S", "M", "L"], "color": ["black", "white", "red", "blue"], "ventilation": ["low", "medium", "high"]}),
    ("Dumbbell Set", 290, {"weight range": ["5-25 lbs", "30-50 lbs", "55-75 lbs"], "material": ["iron", "urethane", "rubber"], "set type": ["fixed", "adjustable"]}),
    ("Portable Charger", 58, {"capacity": ["5000mAh", "10000mAh", "20000mAh"], "output": ["USB-A", "USB-C", "wireless"], "color": ["black", "white", "blue"]}),
    ("Smart Thermostat", 245, {"compatibility": ["Apple HomeKit", "Google Assistant", "Amazon Alexa"], "color": ["black", "white", "stainless steel"]}),
    ("Pet Bed", 95, {"size": ["small", "medium", "large"], "material": ["polyester", "fleece", "memory foam"], "color": ["grey", "brown", "beige"]}),
    ("Perfume", 118, {"scent family": ["floral", "woody", "citrus", "fresh"], "size": ["30ml", "50ml", "100ml"], "gender": ["men", "women", "unisex"]}),
    ("Notebook", 18, {"size": ["A4", "A5", "A6"], "cover type": ["hard cover", "soft cover"], "ruling": ["lined", "dotted", "blank"]}),
    ("Bookshelf", 210, {"material": ["wood", "metal", "glass"], "color": ["white", "black", "brown"], "height": ["3 ft", "4 ft", "5 ft", "6 ft"]}),
    ("Makeup Kit", 82, {"skin tone": ["light", "medium", "dark"], "kit size": ["basic", "professional"], "finish": ["matte", "dewy", "natural"]}),
    ("Indoor Security Camera", 195, {"resolution": ["1080p", "2K", "4K"], "field of view": ["110 degrees", "130 degrees", "160 degrees"], "connectivity": ["Wi-Fi", "Ethernet"]}),
    ("Espresso Machine", 520, {"pressure": ["9 bar", "15 bar", "19 bar"], "capacity": ["1L", "1.5L", "2L"], "type": ["manual", "automatic", "capsule"]}),
    ("Cookware Set", 185, {"material": ["stainless steel", "cast iron", "non-stick"], "piece count": ["5", "8", "12"], "color": ["black", "silver", "red"]}),
    ("Electric Toothbrush", 98, {"color": ["white", "black", "blue", "pink"], "speed settings": ["low", "high"], "battery type": ["rechargeable", "AA batteries"]}),
    ("Patio Umbrella", 150, {"size": ["6 ft", "7 ft", "9 ft"], "color": ["red", "green", "blue", "black"], "tilt": ["manual", "auto"]}),
    ("LED Light Bulb", 28, {"brightness": ["60W equivalent", "75W equivalent", "100W equivalent"], "color temperature": ["daylight", "soft white", "warm white"], "connectivity": ["none", "Wi-Fi", "Bluetooth"]}),
    ("Grill", 420, {"type": ["gas", "charcoal", "electric"], "size": ["portable", "medium", "large"], "features": ["side burner", "rotisserie", "none"]}),
    ("Luggage Set", 305, {"piece count": ["2-piece", "3-piece", "4-piece"], "color": ["black", "navy", "red", "silver"], "material": ["hardshell", "softshell"]}),
]
assert len(CATALOG) == N_PRODUCTS

FIRST_NAMES = [
    "Aarav", "Amelia", "Ava", "Benjamin", "Camila", "Chen", "Daiki", "Daniel", "Elena", "Emma", "Ethan", "Fatima",
    "Gabriel", "Grace", "Hana", "Harper", "Ibrahim", "Isabella", "Jamal", "James", "Kai", "Layla", "Leo", "Liam",
    "Lucas", "Maya", "Mei", "Mia", "Mohamed", "Noah", "Nora", "Olivia", "Omar", "Priya", "Rafael", "Ravi", "Sara",
    "Sofia", "Taro", "Uma", "Valentina", "Wei", "Yara", "Yusuf", "Zoe", "Anya", "Bruno", "Clara", "Diego", "Esther",
]
LAST_NAMES = [
    "Adams", "Ahmed", "Alvarez", "Bennett", "Brooks", "Castillo", "Chen", "Cohen", "Diaz", "Evans", "Fischer",
    "Garcia", "Gupta", "Hansen", "Hernandez", "Ito", "Jackson", "Johansson", "Kim", "Kowalski", "Lee", "Lopez",
    "Martin", "Mehta", "Moreno", "Nakamura", "Nguyen", "Okafor", "Olsen", "Patel", "Perez", "Quinn", "Rossi",
    "Santos", "Schmidt", "Silva", "Singh", "Sullivan", "Tanaka", "Thomas", "Vargas", "Wang", "Weber", "Wilson",
    "Wright", "Yamamoto", "Young", "Zhang", "Novak", "Murphy",
]
CITIES = people.cities(
    "Austin, Boston, Chicago, Denver, Seattle, Portland, Phoenix, Atlanta, Columbus, Charlotte, San Diego, San Jose, "
    "Los Angeles, New York, Philadelphia, Houston, Dallas, Fort Worth, Jacksonville, Miami, Minneapolis, Nashville, "
    "Detroit, Milwaukee, Indianapolis, Las Vegas, Salt Lake City, Baltimore"
)
STREETS = [
    "Maple", "Oak", "Cedar", "Pine", "Elm", "Willow", "Lakeview", "Hillcrest", "River", "Sunset", "Park", "Highland",
    "Washington", "Lincoln", "Jefferson", "Chestnut", "Spruce", "Broad", "Main", "Market", "Mill", "Church", "Forest",
    "Meadow", "Harbor", "Valley", "Ridge", "Spring", "Walnut", "Laurel",
]
STREET_KINDS = ["Street", "Avenue", "Road", "Lane", "Drive", "Boulevard", "Court", "Way"]
CARD_BRANDS = ["visa", "mastercard", "amex", "discover"]

# status mix of the generated order history
STATUS_WEIGHTS = [
    ("pending", 28), ("processed", 14), ("delivered", 34), ("cancelled", 10),
    ("return requested", 7), ("exchange requested", 7),
]


def random_address(rng: random.Random) -> dict[str, str]:
    city, state, prefix = rng.choice(CITIES)
    unit = rng.choice(["Apt", "Suite", "Unit"])
    return {
        "address1": f"{rng.randint(10, 9999)} {rng.choice(STREETS)} {rng.choice(STREET_KINDS)}",
        "address2": f"{unit} {rng.randint(1, 999)}",
        "city": city,
        "state": state,
        "country": "USA",
        "zip": f"{prefix}{rng.randint(0, 99):02d}",
    }


def _unique_number(rng: random.Random, used: set[str], digits: int) -> str:
    while True:
        s = str(rng.randrange(10 ** (digits - 1), 10**digits))
        if s not in used:
            used.add(s)
            return s


def _products(rng: random.Random, used_ids: set[str]) -> dict[str, dict[str, Any]]:
    products: dict[str, dict[str, Any]] = {}
    for name, base, options in CATALOG:
        pid = _unique_number(rng, used_ids, 10)
        keys = list(options)
        combos = list(itertools.product(*(options[k] for k in keys)))
        n = min(len(combos), rng.randint(7, 14))
        chosen = rng.sample(combos, n)
        variants: dict[str, dict[str, Any]] = {}
        for combo in chosen:
            iid = _unique_number(rng, used_ids, 10)
            variants[iid] = {
                "item_id": iid,
                "options": dict(zip(keys, combo)),
                "available": rng.random() < 0.72,
                "price": round(base * rng.uniform(0.82, 1.22), 2),
            }
        # every product keeps at least two variants on sale, so exchanges are possible
        on_sale = [v for v in variants.values() if v["available"]]
        for v in list(variants.values())[: max(0, 2 - len(on_sale))]:
            v["available"] = True
        products[pid] = {"product_id": pid, "name": name, "variants": variants}
    return products


def _payment_methods(rng: random.Random, used_ids: set[str]) -> dict[str, dict[str, Any]]:
    methods: list[dict[str, Any]] = []
    for _ in range(rng.choice([1, 1, 2])):
        last_four = f"{rng.randrange(10000):04d}"
        methods.append({"id": f"credit_card_{_unique_number(rng, used_ids, 7)}", "source": "credit_card",
                        "brand": rng.choice(CARD_BRANDS), "last_four": last_four})
    if len(methods) == 2 and methods[0]["brand"] == methods[1]["brand"] and methods[0]["last_four"] == methods[1]["last_four"]:
        methods.pop()
    if rng.random() < 0.45:
        methods.append({"id": f"paypal_{_unique_number(rng, used_ids, 7)}", "source": "paypal"})
    if rng.random() < 0.45:
        methods.append({"id": f"gift_card_{_unique_number(rng, used_ids, 7)}", "source": "gift_card",
                        "balance": float(rng.randint(0, 300))})
    rng.shuffle(methods)
    return {m["id"]: m for m in methods}


def build_database(seed: int = 0, split: str = "test") -> dict[str, dict[str, dict[str, Any]]]:
    """Build the retail tables. `split` only salts the RNG, so a training database differs."""
    rng = random.Random(f"retail:{split}:{seed}")
    used: set[str] = set()
    products = _products(rng, used)

    users: dict[str, dict[str, Any]] = {}
    names = list(itertools.product(FIRST_NAMES, LAST_NAMES))
    rng.shuffle(names)
    for first, last in names[:N_USERS]:
        uid = f"{first.lower()}_{last.lower()}_{_unique_number(rng, used, 4)}"
        users[uid] = {
            "user_id": uid,
            "name": {"first_name": first, "last_name": last},
            "email": f"{first.lower()}.{last.lower()}{rng.randint(1, 9999)}@example.com",
            "address": random_address(rng),
            "payment_methods": _payment_methods(rng, used),
            "orders": [],
        }

    user_ids = list(users)
    owners = user_ids + [rng.choice(user_ids) for _ in range(N_ORDERS - len(user_ids))]
    rng.shuffle(owners)
    statuses = [s for s, _ in STATUS_WEIGHTS]
    weights = [w for _, w in STATUS_WEIGHTS]
    product_list = list(products.values())
    orders: dict[str, dict[str, Any]] = {}
    for uid in owners:
        user = users[uid]
        oid = f"#W{_unique_number(rng, used, 7)}"
        items = []
        for product in rng.sample(product_list, rng.choices([1, 2, 3, 4, 5], [30, 30, 20, 12, 8])[0]):
            v = rng.choice(list(product["variants"].values()))
            items.append({"name": product["name"], "product_id": product["product_id"], "item_id": v["item_id"],
                          "price": v["price"], "options": dict(v["options"])})
        total = round(sum(i["price"] for i in items), 2)
        status = rng.choices(statuses, weights)[0]
        pm = rng.choice(sorted(user["payment_methods"]))
        order: dict[str, Any] = {
            "order_id": oid,
            "user_id": uid,
            "address": dict(user["address"]) if rng.random() < 0.85 else random_address(rng),
            "items": items,
            "status": status,
            "fulfillments": [],
            "payment_history": [{"transaction_type": "payment", "amount": total, "payment_method_id": pm}],
            "items_modified": False,
        }
        if status not in ("pending", "cancelled"):
            order["fulfillments"] = [{"tracking_id": [_unique_number(rng, used, 12)],
                                      "item_ids": [i["item_id"] for i in items]}]
        if status == "cancelled":
            order["cancel_reason"] = rng.choice(["no longer needed", "ordered by mistake"])
            order["payment_history"].append({"transaction_type": "refund", "amount": total, "payment_method_id": pm})
        elif status == "return requested":
            picked = rng.sample(items, rng.randint(1, len(items)))
            order["return_items"] = sorted(i["item_id"] for i in picked)
            order["return_payment_method_id"] = pm
        elif status == "exchange requested":
            old = rng.choice(items)
            others = [v for v in products[old["product_id"]]["variants"].values() if v["item_id"] != old["item_id"]]
            new = rng.choice(others)
            order["exchange_items"] = [old["item_id"]]
            order["exchange_new_items"] = [new["item_id"]]
            order["exchange_payment_method_id"] = pm
            order["exchange_price_difference"] = round(new["price"] - old["price"], 2)
        orders[oid] = order
        user["orders"].append(oid)

    return {"users": users, "products": products, "orders": orders}
