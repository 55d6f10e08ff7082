"""The menu of the restaurant group: 207 dishes in eleven categories (the released menu size).

Each category says which modifier dimensions its plates vary on, the values each dimension takes
there, and a base price range. The generator draws two to four plates per dish from these.
"""
from __future__ import annotations

SPICE = ["mild", "medium", "hot", "extra hot"]
PORTION = ["small", "regular", "large"]
ASIAN_PROTEIN = ["chicken", "beef", "pork", "shrimp", "tofu", "vegetable"]

# price deltas on top of a dish's base price
PORTION_DELTA = {"small": -2.5, "regular": 0.0, "large": 3.5}
PROTEIN_DELTA = {"beef": 2.0, "pork": 1.0, "shrimp": 3.5, "salmon": 4.5, "lamb": 4.0, "steak": 4.0,
                 "tofu": -0.5, "vegetable": -1.0, "mushroom": -0.5, "sausage": 1.5, "meatball": 1.5,
                 "turkey": 0.5, "falafel": -0.5, "tuna": 3.0, "crab": 4.5}
PREP_DELTA = {"deep dish": 3.0, "stuffed crust": 2.0, "pan-seared": 1.0, "blackened": 1.0, "double patty": 4.0,
              "loaded": 2.0, "family style": 9.0, "tempura": 1.5}

# category: (titles, {dimension: values}, (lowest base price, highest base price))
CATEGORIES: dict[str, tuple[list[str], dict[str, list[str]], tuple[float, float]]] = {
    "curry": (
        ["Green Curry", "Red Curry", "Massaman Curry", "Panang Curry", "Yellow Curry", "Tikka Masala",
         "Butter Masala", "Vindaloo", "Korma", "Jungle Curry", "Katsu Curry", "Rogan Josh", "Saag",
         "Madras Curry", "Khao Soi"],
        {"spice_level": SPICE, "protein": ["chicken", "beef", "shrimp", "tofu", "lamb", "vegetable"], "portion": PORTION},
        (14, 19),
    ),
    "noodles": (
        ["Pad Thai", "Pad See Ew", "Drunken Noodles", "Lo Mein", "Chow Mein", "Dan Dan Noodles",
         "Singapore Noodles", "Yakisoba", "Japchae", "Pho", "Tonkotsu Ramen", "Shoyu Ramen", "Miso Ramen",
         "Udon Soup", "Beef Chow Fun", "Laksa", "Pancit Canton", "Zaru Soba", "Cold Sesame Noodles",
         "Spicy Garlic Noodles"],
        {"spice_level": SPICE, "protein": ASIAN_PROTEIN, "portion": PORTION},
        (13, 18),
    ),
    "pasta": (
        ["Spaghetti Carbonara", "Fettuccine Alfredo", "Penne Arrabbiata", "Lasagna Bolognese",
         "Linguine alle Vongole", "Pesto Trofie", "Cacio e Pepe", "Rigatoni alla Vodka", "Gnocchi Sorrentina",
         "Mushroom Ravioli", "Lobster Ravioli", "Baked Ziti", "Orecchiette with Sausage", "Tagliatelle Ragu",
         "Shrimp Scampi", "Spaghetti and Meatballs", "Pappardelle Bolognese", "Seafood Linguine",
         "Truffle Tagliolini", "Pasta Primavera"],
        {"protein": ["chicken", "shrimp", "sausage", "meatball", "mushroom", "vegetable"], "portion": PORTION},
        (15, 24),
    ),
    "pizza": (
        ["Margherita Pizza", "Pepperoni Pizza", "Quattro Formaggi Pizza", "Diavola Pizza",
         "Mushroom Truffle Pizza", "Hawaiian Pizza", "BBQ Chicken Pizza", "Veggie Supreme Pizza",
         "Prosciutto Arugula Pizza", "Sausage and Peppers Pizza", "White Clam Pizza", "Buffalo Chicken Pizza",
         "Meat Lovers Pizza", "Spinach Ricotta Pizza", "Marinara Pizza"],
        {"portion": PORTION, "preparation": ["thin crust", "hand-tossed", "deep dish", "stuffed crust"]},
        (13, 21),
    ),
    "burgers and sandwiches": (
        ["Classic Cheeseburger", "Bacon Burger", "Mushroom Swiss Burger", "Black Bean Burger", "Smash Burger",
         "Jalapeno Burger", "Blue Cheese Burger", "Club Sandwich", "Reuben Sandwich", "Philly Cheesesteak",
         "Chicken Parm Sub", "Cuban Sandwich", "Banh Mi", "Grilled Cheese", "Falafel Wrap",
         "Chicken Caesar Wrap", "Pulled Pork Sandwich", "Fried Chicken Sandwich", "Meatball Sub", "Tuna Melt"],
        {"protein": ["beef", "chicken", "turkey", "falafel", "pork"], "preparation": ["single patty", "double patty", "grilled", "crispy"]},
        (12, 17),
    ),
    "tacos and burritos": (
        ["Street Tacos", "Fish Tacos", "Birria Tacos", "Al Pastor Tacos", "Carnitas Tacos", "Baja Shrimp Tacos",
         "Carne Asada Burrito", "Bean and Cheese Burrito", "California Burrito", "Chicken Quesadilla",
         "Steak Fajitas", "Chicken Enchiladas", "Chile Relleno", "Tamales", "Nachos Grande", "Taco Salad",
         "Chimichanga", "Pozole", "Tostadas", "Burrito Bowl"],
        {"spice_level": SPICE[:3], "protein": ["chicken", "steak", "pork", "shrimp", "vegetable"], "portion": PORTION},
        (11, 17),
    ),
    "rice and bowls": (
        ["Teriyaki Bowl", "Poke Bowl", "Bibimbap", "Bulgogi Plate", "General Tso's Chicken", "Orange Chicken",
         "Kung Pao Chicken", "Mapo Tofu", "Sweet and Sour Pork", "Beef and Broccoli", "Fried Rice",
         "Pineapple Fried Rice", "Nasi Goreng", "Chicken Katsu", "Sushi Platter", "Dragon Roll",
         "Spicy Tuna Roll", "Chicken Adobo", "Basil Stir Fry", "Cashew Chicken", "Szechuan Beef"],
        {"spice_level": SPICE, "protein": ASIAN_PROTEIN + ["salmon", "tuna"], "preparation": ["steamed", "stir-fried", "tempura"]},
        (13, 22),
    ),
    "grill and mains": (
        ["Ribeye Steak", "New York Strip", "Filet Mignon", "Grilled Salmon", "Roast Chicken", "Lamb Chops",
         "Pork Chop", "BBQ Ribs", "Fish and Chips", "Shrimp and Grits", "Chicken Marsala", "Chicken Piccata",
         "Eggplant Parmesan", "Beef Stroganoff", "Shepherd's Pie", "Jambalaya", "Seafood Paella",
         "Chicken Shawarma Plate", "Lamb Kofta Plate", "Mixed Grill Platter", "Blackened Catfish"],
        {"preparation": ["grilled", "pan-seared", "blackened", "roasted", "family style"], "portion": PORTION},
        (19, 38),
    ),
    "salads and soups": (
        ["Caesar Salad", "Greek Salad", "Cobb Salad", "Nicoise Salad", "Caprese Salad", "Kale Salad",
         "Quinoa Salad", "Thai Beef Salad", "Chopped Salad", "Spinach Salad", "Tomato Bisque",
         "French Onion Soup", "Chicken Noodle Soup", "Minestrone", "Clam Chowder", "Tom Yum Soup",
         "Tom Kha Soup", "Lentil Soup", "Hot and Sour Soup", "Wonton Soup"],
        {"protein": ["chicken", "shrimp", "salmon", "tofu", "vegetable"], "portion": PORTION},
        (8, 15),
    ),
    "starters and sides": (
        ["Chicken Wings", "Crispy Calamari", "Garlic Bread", "Mozzarella Sticks", "Spring Rolls",
         "Pork Dumplings", "Vegetable Samosas", "Edamame", "Hummus Plate", "Bruschetta", "Loaded Potato Skins",
         "Onion Rings", "French Fries", "Sweet Potato Fries", "Mac and Cheese", "Garlic Naan",
         "Guacamole and Chips", "Crab Cakes", "Stuffed Mushrooms", "Jalapeno Poppers"],
        {"portion": PORTION, "preparation": ["fried", "baked", "air-fried", "loaded"]},
        (6, 13),
    ),
    "desserts and drinks": (
        ["Tiramisu", "Cheesecake", "Chocolate Lava Cake", "Creme Brulee", "Key Lime Pie", "Panna Cotta",
         "Mango Sticky Rice", "Churros", "Gelato", "Brownie Sundae", "Baklava", "Thai Iced Tea", "Mango Lassi",
         "Horchata", "Cold Brew Coffee"],
        {"portion": PORTION, "preparation": ["classic", "vegan", "sugar-free"]},
        (5, 10),
    ),
}

N_DISHES = sum(len(titles) for titles, _, _ in CATEGORIES.values())
assert N_DISHES == 207, N_DISHES



def menu_words(titles: list[str], lo: int = 2, hi: int = 4) -> dict[str, list[str]]:
    """Title words shared by ``lo`` to ``hi`` dishes (whole words): what a patron may ask the menu about."""
    found: dict[str, list[str]] = {}
    for title in sorted(titles):
        for word in set(title.replace("'s", "").split()):
            if len(word) >= 4 and word[0].isupper():
                found.setdefault(word, []).append(title)
    return {w: ts for w, ts in sorted(found.items()) if lo <= len(ts) <= hi}
