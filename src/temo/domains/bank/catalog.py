"""Static word lists for the bank generator: merchants, employers, other banks, payees, vehicles."""
from __future__ import annotations

# (merchant, MCC, typical low, typical high)
MERCHANTS: list[tuple[str, str, float, float]] = [
    ("Trader Joe's", "5411", 18, 140), ("Whole Foods Market", "5411", 25, 190), ("Kroger", "5411", 20, 160),
    ("Safeway", "5411", 15, 150), ("Costco Wholesale", "5300", 60, 420), ("Target", "5310", 12, 180),
    ("Walmart Supercenter", "5310", 10, 200), ("Starbucks", "5814", 4, 18), ("Blue Bottle Coffee", "5814", 5, 16),
    ("Chipotle", "5812", 10, 32), ("Olive Garden", "5812", 28, 95), ("Sweetgreen", "5812", 12, 28),
    ("Shell", "5541", 25, 85), ("Chevron", "5541", 28, 90), ("ExxonMobil", "5541", 22, 80),
    ("Amazon", "5942", 9, 260), ("Best Buy", "5732", 25, 900), ("Home Depot", "5200", 15, 480),
    ("IKEA", "5712", 30, 650), ("CVS Pharmacy", "5912", 6, 75), ("Walgreens", "5912", 5, 70),
    ("Uber", "4121", 8, 55), ("Lyft", "4121", 8, 50), ("Delta Air Lines", "4511", 140, 780),
    ("Marriott Hotels", "7011", 160, 720), ("Netflix", "4899", 15.49, 22.99), ("Spotify", "4899", 10.99, 16.99),
    ("AMC Theatres", "7832", 14, 60), ("Planet Fitness", "7997", 10, 25), ("REI", "5941", 20, 350),
    ("Apple Store", "5732", 29, 1200), ("Petco", "5995", 12, 120), ("Sephora", "5977", 18, 160),
]
EMPLOYERS = [
    "Brightline Logistics", "Cedar Health Partners", "Northgate Software", "Riverbend School District",
    "Summit Engineering", "Harbor Freight Lines", "Maple Grove Hospital", "Evergreen Insurance",
    "Pinnacle Retail Group", "Bluewater Analytics", "Granite State University", "Copperleaf Foods",
    "Silverline Media", "Ironwood Construction", "Clearview Dental Group", "Oakmont County",
]
BILLERS = [
    ("City Power & Light", "4900"), ("Metro Water Utility", "4900"), ("Comcast Xfinity", "4899"),
    ("Verizon Wireless", "4814"), ("State Farm Insurance", "6300"), ("Geico", "6300"),
]
US_BANKS = [
    ("Chase", "0210"), ("Bank of America", "0260"), ("Wells Fargo", "1210"), ("Citibank", "0210"),
    ("US Bank", "0910"), ("PNC Bank", "0430"), ("Capital One", "0560"), ("TD Bank", "0311"),
    ("Ally Bank", "1240"), ("Navy Federal Credit Union", "2560"), ("Truist", "0610"), ("Fifth Third Bank", "0420"),
]
# (bank, SWIFT/BIC, country code, country, city, BBAN shape: list of (kind, length) with kind 'a' letters or 'n' digits)
FOREIGN_BANKS = [
    ("Deutsche Bank", "DEUTDEFF", "DE", "Germany", "Frankfurt", [("n", 8), ("n", 10)]),
    ("Barclays", "BARCGB22", "GB", "United Kingdom", "London", [("a", 4), ("n", 6), ("n", 8)]),
    ("BNP Paribas", "BNPAFRPP", "FR", "France", "Paris", [("n", 5), ("n", 5), ("n", 11), ("n", 2)]),
    ("Banco Santander", "BSCHESMM", "ES", "Spain", "Madrid", [("n", 4), ("n", 4), ("n", 2), ("n", 10)]),
    ("ING Bank", "INGBNL2A", "NL", "Netherlands", "Amsterdam", [("a", 4), ("n", 10)]),
    ("UniCredit", "UNCRITMM", "IT", "Italy", "Milan", [("a", 1), ("n", 5), ("n", 5), ("n", 12)]),
    ("Bank of Ireland", "BOFIIE2D", "IE", "Ireland", "Dublin", [("a", 4), ("n", 6), ("n", 8)]),
]
FOREIGN_STREETS = ["Hauptstrasse", "High Street", "Rue de la Paix", "Calle Mayor", "Keizersgracht", "Via Roma",
                   "Grafton Street"]
BUSINESS_PAYEES = [
    "Oakridge Property Management", "Sunrise Daycare Center", "Patel Family Dentistry", "Greenleaf Landscaping",
    "Summit Roofing Co.", "Bright Smile Orthodontics", "Riverside Apartments LLC", "Keystone Tutoring",
    "Harmony Music School", "Redwood Auto Repair", "Lakeside HOA", "Northside Pediatrics",
    "Cornerstone Accounting", "Willow Creek Veterinary Clinic", "Metro Storage Units", "Elite Home Cleaning",
]
PAYEE_NOTES_PERSON = ["Monthly allowance", "Shared rent", "Birthday gifts", "Split bills", "Tuition help", "", "", ""]
PAYEE_NOTES_BUSINESS = ["Monthly rent", "Childcare", "Quarterly invoice", "Service payments", "", ""]
VEHICLES = ["Toyota RAV4", "Honda Civic", "Ford F-150", "Subaru Outback", "Tesla Model 3", "Hyundai Tucson",
            "Chevrolet Equinox", "Mazda CX-5", "Kia Telluride", "Nissan Rogue", "Jeep Wrangler", "Volkswagen Jetta"]
HOME_KINDS = ["single-family home", "townhouse", "condominium"]
