"""Fixed word lists the movie generator draws from: titles, genres, theater names, the snack menu."""
from __future__ import annotations

# (title, genres, rating, runtime minutes); 64 fictional films, 51 are drawn per database
FILMS: list[tuple[str, tuple[str, ...], str, int]] = [
    ("The Lighthouse Keeper's Daughter", ("drama",), "PG-13", 118),
    ("Midnight on Harrow Street", ("thriller", "mystery"), "R", 104),
    ("Paper Comets", ("animation", "family"), "G", 92),
    ("Iron Tide", ("action", "sci-fi"), "PG-13", 136),
    ("A Recipe for Rain", ("romance", "comedy"), "PG-13", 101),
    ("The Quiet Orchard", ("drama",), "PG", 112),
    ("Velocity Nine", ("action",), "PG-13", 124),
    ("Saltwater Ghosts", ("horror",), "R", 97),
    ("The Cartographer", ("adventure", "drama"), "PG-13", 128),
    ("Neon Foxes", ("animation", "comedy"), "PG", 89),
    ("Beneath the Glacier", ("sci-fi", "thriller"), "PG-13", 115),
    ("Last Train to Marlow", ("mystery",), "PG-13", 109),
    ("Kingdom of Kites", ("family", "adventure"), "PG", 98),
    ("The Understudy", ("comedy", "drama"), "R", 106),
    ("Echoes of Andromeda", ("sci-fi",), "PG-13", 142),
    ("Sweet Tea and Thunder", ("comedy",), "PG-13", 95),
    ("The Vanishing Choir", ("horror", "mystery"), "R", 102),
    ("Copperfield Heist", ("crime", "action"), "PG-13", 117),
    ("Winter in Lisbon", ("romance", "drama"), "PG-13", 110),
    ("Dragonfly Summer", ("family", "drama"), "PG", 100),
    ("The Atlas Protocol", ("action", "thriller"), "PG-13", 131),
    ("Bad Hair Week", ("comedy",), "PG-13", 93),
    ("Shadows over Kettle Creek", ("horror",), "R", 99),
    ("The Glass Violin", ("drama", "music"), "PG", 121),
    ("Starlight Rangers", ("animation", "adventure"), "PG", 96),
    ("Operation Sandcastle", ("comedy", "action"), "PG-13", 105),
    ("The Long Way Home", ("drama",), "PG", 114),
    ("Circuit Breakers", ("sci-fi", "comedy"), "PG-13", 103),
    ("Bones of the Desert", ("western", "drama"), "R", 126),
    ("My Neighbor the Robot", ("family", "sci-fi"), "PG", 94),
    ("The Seventh Envelope", ("mystery", "thriller"), "PG-13", 111),
    ("Harvest Moon Wedding", ("romance", "comedy"), "PG", 99),
    ("Red Canyon Run", ("action", "western"), "PG-13", 119),
    ("The Whispering Library", ("fantasy", "family"), "PG", 107),
    ("Frostbite", ("horror", "thriller"), "R", 91),
    ("Tales from the Night Market", ("animation", "fantasy"), "PG", 97),
    ("A Thousand Small Fires", ("drama",), "R", 123),
    ("Skyline Sprint", ("sports", "drama"), "PG-13", 116),
    ("Penguins in Paris", ("animation", "comedy"), "G", 85),
    ("The Clockmaker's Apprentice", ("fantasy", "adventure"), "PG", 120),
    ("Deep Field", ("sci-fi", "drama"), "PG-13", 134),
    ("Grandma Goes Rogue", ("comedy", "action"), "PG-13", 98),
    ("The Marigold Affair", ("romance", "mystery"), "PG-13", 108),
    ("Thunder Valley Eleven", ("sports", "family"), "PG", 113),
    ("Hollow Pines", ("horror",), "R", 100),
    ("Voyage of the Albatross", ("adventure",), "PG-13", 129),
    ("The Second Sunrise", ("sci-fi", "romance"), "PG-13", 112),
    ("Jazz at the End of the World", ("music", "drama"), "PG-13", 117),
    ("Mischief Managers", ("comedy", "family"), "PG", 90),
    ("The Fifth Witness", ("crime", "drama"), "R", 125),
    ("Orbit of Lanterns", ("animation", "sci-fi"), "PG", 95),
    ("Silver Spurs", ("western",), "PG-13", 110),
    ("Cold Open", ("comedy", "crime"), "R", 97),
    ("The Beekeeper's Secret", ("drama", "mystery"), "PG-13", 109),
    ("Roar of the Pacific", ("documentary",), "PG", 88),
    ("Chasing Aurora", ("adventure", "romance"), "PG-13", 114),
    ("Monsters Under Maple Street", ("animation", "family"), "PG", 91),
    ("The Ninth Floor", ("horror", "thriller"), "R", 103),
    ("Crown of Embers", ("fantasy", "action"), "PG-13", 147),
    ("Wild Honey", ("romance", "drama"), "R", 106),
    ("Tiny Titans", ("documentary", "family"), "G", 80),
    ("Gridlock", ("action", "comedy"), "PG-13", 100),
    ("The Painted Desert", ("western", "adventure"), "PG-13", 122),
    ("Moonlight Sonata Club", ("music", "comedy"), "PG-13", 104),
]

SYNOPSIS_OPENINGS = [
    "A {who} {does}", "When a {who} {does}", "After a {who} {does}", "An unlikely {who} {does}",
]
WHO = ["retired detective", "young inventor", "small-town baker", "grieving pilot", "stubborn scientist",
       "runaway teenager", "jazz pianist", "ship's cook", "park ranger", "history teacher", "street magician",
       "veteran stuntwoman", "shy librarian", "rookie reporter", "former boxer"]
DOES = ["finds a map that should not exist", "receives a letter from the future",
        "inherits a failing theater", "witnesses a crime no one believes", "is stranded far from home",
        "discovers a family secret", "enters a contest against all odds", "befriends a stranger on the run",
        "is pulled back into the old life", "has one week to save the town"]
ENDINGS = [", and nothing is the same again.", ", and must choose what matters most.", ", and the clock starts ticking.",
           ", and an adventure begins.", ", and old wounds reopen.", ", and everyone starts talking."]

AUDIO = ["English", "English", "English", "English", "Spanish", "French", "Korean", "Japanese"]
SUBTITLE_CHOICES = [[], ["English"], ["Spanish"], ["English", "Spanish"]]

BRANDS = ["Silverscreen", "Silverscreen Grand", "Silverscreen Marquee", "Silverscreen Luxe"]
PLACES = ["Riverside", "Downtown", "Uptown", "Harbor Point", "Westgate", "Eastfield", "Lakeshore", "Old Town",
          "Hillside", "Northpark", "Southbridge", "Midtown", "Cedar Mall", "Station Square", "Mill District",
          "Union Plaza", "Brookside", "Parkview", "Capitol", "Waterfront"]
AMENITIES = ["reserved seating", "recliners", "bar and lounge", "free parking", "arcade", "hearing assistance",
             "audio description", "party rooms", "dine-in service", "bike racks", "elevator access"]
AUDITORIUM_NAMES = ["Screen {n}", "Hall {n}", "Studio {n}"]

# item id -> (name, {size: price})
CONCESSIONS: dict[str, tuple[str, dict[str, float]]] = {
    "CON-POP": ("Popcorn", {"small": 6.5, "medium": 8.0, "large": 9.5}),
    "CON-SODA": ("Fountain soda", {"small": 4.25, "medium": 5.0, "large": 5.75}),
    "CON-NACHO": ("Nachos", {"regular": 7.75}),
    "CON-CANDY": ("Boxed candy", {"regular": 4.5}),
    "CON-WATER": ("Bottled water", {"regular": 3.5}),
    "CON-HOTDOG": ("Hot dog", {"regular": 6.25}),
    "CON-PRETZEL": ("Soft pretzel", {"regular": 5.5}),
    "CON-COMBO": ("Popcorn and soda combo", {"medium": 12.0, "large": 14.5}),
}

SPECIAL_REQUESTS = ["celebrating a birthday", "please keep the tickets together at pickup",
                    "one guest uses a walking cane", "first time at this theater", "bringing a booster seat for a child"]
