"""Static vocabulary the travel generator draws from: places, agencies, hotels, add-ons, activities."""
from __future__ import annotations

# region -> [(city, country)]
PLACES: dict[str, list[tuple[str, str]]] = {
    "Europe": [
        ("Rome", "Italy"), ("Florence", "Italy"), ("Venice", "Italy"), ("Paris", "France"), ("Nice", "France"),
        ("Barcelona", "Spain"), ("Seville", "Spain"), ("Lisbon", "Portugal"), ("Porto", "Portugal"),
        ("Athens", "Greece"), ("Santorini", "Greece"), ("Reykjavik", "Iceland"), ("Edinburgh", "United Kingdom"),
        ("London", "United Kingdom"), ("Dubrovnik", "Croatia"), ("Prague", "Czech Republic"), ("Vienna", "Austria"),
    ],
    "Asia": [
        ("Tokyo", "Japan"), ("Kyoto", "Japan"), ("Osaka", "Japan"), ("Bangkok", "Thailand"),
        ("Chiang Mai", "Thailand"), ("Phuket", "Thailand"), ("Hanoi", "Vietnam"), ("Hoi An", "Vietnam"),
        ("Ubud", "Indonesia"), ("Seoul", "South Korea"), ("Jaipur", "India"), ("Kathmandu", "Nepal"),
    ],
    "Africa and the Middle East": [
        ("Marrakech", "Morocco"), ("Cairo", "Egypt"), ("Nairobi", "Kenya"), ("Cape Town", "South Africa"),
        ("Arusha", "Tanzania"), ("Zanzibar", "Tanzania"), ("Dubai", "United Arab Emirates"), ("Petra", "Jordan"),
    ],
    "Latin America": [
        ("Cusco", "Peru"), ("Lima", "Peru"), ("Buenos Aires", "Argentina"), ("Mendoza", "Argentina"),
        ("Rio de Janeiro", "Brazil"), ("Mexico City", "Mexico"), ("Oaxaca", "Mexico"), ("Cancun", "Mexico"),
        ("San Jose", "Costa Rica"),
    ],
    "North America": [
        ("Banff", "Canada"), ("Vancouver", "Canada"), ("Honolulu", "United States"), ("Anchorage", "United States"),
    ],
    "Oceania": [
        ("Sydney", "Australia"), ("Cairns", "Australia"), ("Queenstown", "New Zealand"), ("Auckland", "New Zealand"),
        ("Nadi", "Fiji"),
    ],
}
# categories that suit each region (weights come from repetition)
REGION_CATEGORIES: dict[str, list[str]] = {
    "Europe": ["cultural", "cultural", "culinary", "luxury", "family", "adventure", "wellness"],
    "Asia": ["cultural", "culinary", "adventure", "wellness", "beach", "luxury", "family"],
    "Africa and the Middle East": ["wildlife", "wildlife", "cultural", "adventure", "luxury", "beach"],
    "Latin America": ["adventure", "cultural", "culinary", "beach", "wildlife", "family"],
    "North America": ["adventure", "family", "wildlife", "beach", "wellness"],
    "Oceania": ["adventure", "beach", "wildlife", "family", "luxury"],
}
REGION_WEIGHTS = {"Europe": 26, "Asia": 22, "Africa and the Middle East": 12, "Latin America": 13,
                  "North America": 7, "Oceania": 7}
GATEWAYS = ["New York", "Los Angeles", "Chicago", "San Francisco", "Miami", "Dallas", "Seattle", "Boston",
            "Atlanta", "Denver"]
NAME_NOUNS = {
    "adventure": ["Adventure", "Trek", "Expedition", "Trail Challenge"],
    "cultural": ["Heritage Tour", "Cultural Journey", "Discovery", "Historic Highlights"],
    "beach": ["Beach Escape", "Island Getaway", "Coastal Break", "Seaside Retreat"],
    "wildlife": ["Safari", "Wildlife Expedition", "Nature Quest", "Wild Encounters"],
    "culinary": ["Food Trail", "Culinary Journey", "Taste Tour", "Kitchen Odyssey"],
    "family": ["Family Adventure", "Family Holiday", "Family Explorer", "Kids and Parents Tour"],
    "luxury": ["Luxury Retreat", "Grand Tour", "Signature Journey", "Private Collection"],
    "wellness": ["Wellness Retreat", "Yoga Escape", "Mindful Journey", "Spa Sojourn"],
}
NAME_PREFIXES = ["Classic", "Hidden", "Best of", "Highlights of", "Essential", "Secret", "Timeless", "Grand"]
BASE_PRICE = {"adventure": (1400, 3400), "cultural": (1300, 3200), "beach": (1100, 2900), "wildlife": (2600, 6200),
              "culinary": (1500, 3600), "family": (1200, 3000), "luxury": (3800, 8900), "wellness": (1500, 3900)}
ROOM_SETS = {
    "family": ["double", "twin", "triple", "family", "single"],
    "luxury": ["double", "suite", "twin", "single"],
    "default": ["double", "twin", "single", "triple"],
}
ACCOMMODATION_TYPES = {"adventure": "lodge", "wildlife": "safari camp", "beach": "resort", "wellness": "resort",
                       "luxury": "luxury hotel", "cultural": "boutique hotel", "culinary": "boutique hotel",
                       "family": "hotel"}
HOTEL_WORDS = ["Aurora", "Belvedere", "Cypress", "Meridian", "Harbor View", "Old Town", "Palm Court", "Riverside",
               "Summit", "Lantern", "Juniper", "Terrace", "Azure", "Orchard", "Grand Plaza", "Kestrel"]
CATEGORY_ADD_ONS: dict[str, list[tuple[str, str, int, int]]] = {  # (type, description, low, high)
    "adventure": [("excursion", "Guided canyon hike with picnic lunch", 70, 130),
                  ("equipment", "Hiking gear rental kit", 40, 80), ("experience", "Zip-line canopy tour", 85, 150)],
    "cultural": [("excursion", "Private museum guide for one day", 90, 170),
                 ("experience", "Evening folk music performance", 45, 90), ("meal", "Welcome dinner with wine pairing", 55, 95)],
    "beach": [("excursion", "Snorkeling trip to the reef", 75, 140), ("experience", "Catamaran sunset cruise", 90, 160),
              ("equipment", "Snorkel gear rental", 25, 45)],
    "wildlife": [("excursion", "Extra dawn game drive", 120, 220), ("experience", "Hot-air balloon ride", 380, 560),
                 ("equipment", "Binoculars and field guide rental", 30, 60)],
    "culinary": [("experience", "Market tour and cooking class", 95, 170), ("excursion", "Vineyard tasting afternoon", 80, 150),
                 ("meal", "Chef's tasting menu dinner", 110, 190)],
    "family": [("excursion", "Theme park day tickets", 110, 190), ("experience", "Kids' activity club pass", 60, 120),
               ("meal", "Family pizza-making night", 45, 85)],
    "luxury": [("experience", "Private chauffeur for one day", 260, 420), ("experience", "Spa day package", 180, 320),
               ("meal", "Private rooftop dinner", 220, 360)],
    "wellness": [("experience", "Daily yoga and meditation sessions", 120, 220),
                 ("experience", "Massage and spa treatment", 110, 190), ("meal", "Plant-based cooking workshop", 70, 120)],
}
COMMON_ADD_ONS = [("transfer", "Private airport transfer (round trip)", 90, 170),
                  ("upgrade", "Superior room upgrade for the whole stay", 180, 420)]
ACTIVITIES = {
    "adventure": ["Ridge hike", "River rafting", "Mountain bike descent", "Cave exploration"],
    "cultural": ["Old town walking tour", "Cathedral and palace visit", "Craft workshop", "Local history talk"],
    "beach": ["Beach day", "Coastal boat trip", "Paddleboard lesson", "Lighthouse walk"],
    "wildlife": ["Game drive", "Bird-watching walk", "Ranger talk", "Night safari"],
    "culinary": ["Street food tour", "Cheese and olive tasting", "Spice market visit", "Bakery morning"],
    "family": ["Aquarium visit", "Treasure hunt walk", "Farm visit", "Science museum"],
    "luxury": ["Private gallery viewing", "Helicopter sightseeing", "Wine cellar tour", "Yacht afternoon"],
    "wellness": ["Sunrise yoga", "Forest bathing walk", "Thermal baths", "Breathwork class"],
}
TRANSPORT = {
    "international": ["Round-trip economy flights from the departure point", "Round-trip flights in premium economy",
                      "Not included; travelers arrange their own flights"],
    "domestic": ["Train between cities", "Short internal flight", "Private coach between stops", "None"],
    "ground": ["Private coach with driver", "Safari vehicle with guide", "Minivan transfers", "Walking and public transit"],
}
INCLUSIONS = ["Daily breakfast", "English-speaking tour leader", "All entrance fees on the itinerary",
              "Airport transfers on arrival day", "Local guides in every city", "Welcome drink",
              "Travel document wallet", "Bottled water on coach days"]
EXCLUSIONS = ["Visa fees", "Personal expenses", "Tips for guides and drivers", "Meals not listed",
              "Optional activities", "Travel insurance unless purchased"]
PACKAGE_NOTES = [None, None, None, "Minimum age 12.", "Moderate fitness needed for walking days.",
                 "Passports must be valid six months past return.", "Small group: at most 16 travelers per room block."]
AGENCIES = [("Compass Rose Travel", "New York", "NY", "10016", "America/New_York"),
            ("Blue Horizon Journeys", "Chicago", "IL", "60601", "America/Chicago"),
            ("Wayfarer & Co.", "Denver", "CO", "80202", "America/Denver"),
            ("Pacific Trails Agency", "Seattle", "WA", "98101", "America/Los_Angeles"),
            ("Sunward Travel Group", "Miami", "FL", "33131", "America/New_York"),
            ("Atlas Route Partners", "Boston", "MA", "02110", "America/New_York"),
            ("Lodestar Holidays", "Austin", "TX", "78701", "America/Chicago"),
            ("Meridian Escapes", "San Diego", "CA", "92101", "America/Los_Angeles")]
LANGUAGES = ["English", "Spanish", "French", "Italian", "German", "Portuguese", "Japanese", "Mandarin", "Arabic",
             "Swahili", "Hindi", "Korean", "Thai", "Vietnamese"]
CERTIFICATIONS = ["Certified Travel Associate", "Certified Travel Counselor", "Destination Specialist",
                  "Luxury Travel Specialist", "Adventure Travel Guide Certificate", "Accessible Travel Advocate"]
AGENT_NOTES = [None, None, "Prefers video calls for planning meetings.", "Handles group bookings.",
               "Part of the honeymoon desk.", "Speaks at the agency's monthly travel evenings."]
MEMBERSHIPS = ["Globetrotter Rewards", "Compass Club", "AAA", "AARP", "Frequent Explorer Gold", "Alumni Travel Circle"]
DIETARY = [None, None, None, "vegetarian", "vegan", "gluten-free", "no shellfish", "halal", "kosher"]
ACCESSIBILITY = [None, None, None, None, "step-free rooms", "wheelchair access", "ground-floor room"]
BED_PREFERENCES = [None, "king bed", "queen bed", "two beds"]
OTHER_PREFERENCES = [None, None, "quiet room away from the elevator", "early check-in when possible",
                     "window seat on flights", "high floor"]
NATIONALITIES = ["United States"] * 8 + ["Canada", "Mexico", "United Kingdom", "India"]
BOOKING_NOTES = [None, None, None, None, "Celebrating an anniversary.", "Traveling with a stroller.",
                 "Requested adjoining rooms.", "First trip abroad."]
