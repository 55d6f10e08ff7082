"""Fixed catalogs of the telehealth world, written for this project: specialties, medications,
supplier companies, the drug interaction table, conditions, insurers and monitoring devices.

The generator combines these with a seeded RNG; the sizes of the released catalogs are kept
(24 medications with 142 supplier listings, 5 medications in the interaction table).
"""
from __future__ import annotations

# specialty -> (number of providers, id slug, title, credential pool, fee range in $5 steps)
SPECIALTY_PLAN: dict[str, tuple[int, str, str, tuple[str, ...], tuple[int, int]]] = {
    "Primary Care": (16, "primary", "MD", ("Board Certified Family Medicine", "Board Certified Internal Medicine"), (120, 160)),
    "Cardiology": (9, "cardiology", "MD", ("FACC", "FSCAI"), (220, 300)),
    "Dermatology": (7, "dermatology", "MD", ("FAAD",), (160, 210)),
    "Psychiatry": (7, "psychiatry", "MD", ("Board Certified Psychiatrist", "DFAPA"), (200, 260)),
    "Endocrinology": (6, "endocrinology", "MD", ("FACE", "ECNU"), (190, 240)),
    "Pediatrics": (6, "pediatrics", "MD", ("FAAP", "Board Certified Pediatrics"), (150, 190)),
    "Pharmacy": (5, "pharmacy", "PharmD", ("BCACP", "BCPS"), (70, 100)),
    "Neurology": (6, "neurology", "MD", ("FAAN",), (220, 280)),
    "Pulmonology": (5, "pulmonology", "MD", ("FCCP",), (200, 250)),
    "Gastroenterology": (5, "gastro", "MD", ("FACG", "AGAF"), (200, 260)),
    "Orthopedics": (5, "orthopedics", "MD", ("FAAOS",), (190, 250)),
    "Rheumatology": (4, "rheumatology", "MD", ("FACR",), (190, 240)),
    "Oncology": (4, "oncology", "MD", ("FASCO",), (240, 300)),
    "Nephrology": (4, "nephrology", "MD", ("FASN",), (200, 250)),
    "Obstetrics and Gynecology": (5, "obgyn", "MD", ("FACOG",), (170, 220)),
    "Ophthalmology": (4, "ophthalmology", "MD", ("FAAO",), (170, 220)),
    "Otolaryngology": (4, "ent", "MD", ("FACS",), (180, 230)),
    "Urology": (4, "urology", "MD", ("FACS",), (190, 240)),
    "Sleep Medicine": (4, "sleep", "MD", ("FAASM",), (180, 230)),
    "Physical Therapy": (4, "physical_therapy", "DPT", ("OCS", "SCS"), (90, 130)),
}
OTHER_LANGUAGES = ["Spanish", "Mandarin", "Hindi", "Korean", "Vietnamese", "French", "Arabic", "Portuguese",
                   "Japanese", "Russian", "Tagalog", "Polish"]
SLOT_TIMES = ["07:30", "08:00", "08:30", "09:00", "09:30", "10:00", "10:30", "11:00", "11:30", "13:00", "13:30",
              "14:00", "14:30", "15:00", "15:30", "16:00", "16:30"]

# medication -> (dosage, frequency, quantity, daily units, monthly units, unit type, base unit price $)
MEDICATIONS: dict[str, tuple[str, str, str, int, int, str, float]] = {
    "Metformin": ("500mg", "twice daily", "60 tablets", 2, 60, "tablet", 0.30),
    "Lisinopril": ("10mg", "once daily", "30 tablets", 1, 30, "tablet", 0.25),
    "Atorvastatin": ("20mg", "nightly", "30 tablets", 1, 30, "tablet", 0.45),
    "Amlodipine": ("5mg", "once daily", "30 tablets", 1, 30, "tablet", 0.22),
    "Sertraline": ("50mg", "once daily", "30 tablets", 1, 30, "tablet", 0.40),
    "Warfarin": ("5mg", "once daily", "30 tablets", 1, 30, "tablet", 0.35),
    "Aspirin": ("81mg", "once daily", "90 tablets", 1, 30, "tablet", 0.05),
    "Metoprolol": ("25mg", "twice daily", "60 tablets", 2, 60, "tablet", 0.20),
    "Simvastatin": ("20mg", "nightly", "30 tablets", 1, 30, "tablet", 0.28),
    "Rosuvastatin": ("10mg", "once daily", "30 tablets", 1, 30, "tablet", 0.65),
    "Bupropion": ("150mg", "once daily", "30 tablets", 1, 30, "tablet", 0.70),
    "Zolpidem": ("5mg", "at bedtime", "30 tablets", 1, 30, "tablet", 0.55),
    "Levothyroxine": ("50mcg", "every morning", "30 tablets", 1, 30, "tablet", 0.18),
    "Omeprazole": ("20mg", "before breakfast", "30 capsules", 1, 30, "capsule", 0.32),
    "Losartan": ("50mg", "once daily", "30 tablets", 1, 30, "tablet", 0.38),
    "Gabapentin": ("300mg", "three times daily", "90 capsules", 3, 90, "capsule", 0.26),
    "Montelukast": ("10mg", "nightly", "30 tablets", 1, 30, "tablet", 0.48),
    "Ezetimibe": ("10mg", "once daily", "30 tablets", 1, 30, "tablet", 0.85),
    "Escitalopram": ("10mg", "once daily", "30 tablets", 1, 30, "tablet", 0.42),
    "Hydrochlorothiazide": ("25mg", "once daily", "30 tablets", 1, 30, "tablet", 0.12),
    "Albuterol": ("90mcg", "2 puffs as needed", "1 inhaler", 0, 1, "inhaler", 24.00),
    "Insulin Glargine": ("20 units", "at bedtime", "3 pens", 0, 3, "pen", 38.00),
    "Apixaban": ("5mg", "twice daily", "60 tablets", 2, 60, "tablet", 7.40),
    "Prednisone": ("10mg", "once daily", "30 tablets", 1, 30, "tablet", 0.15),
}
# how many supplier listings each medication has (sums to the released 142)
SUPPLIER_COUNTS = [8, 7, 7, 7, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5, 5, 5, 5, 5, 5, 5]

# company -> (country, price factor)
COMPANIES: dict[str, tuple[str, float]] = {
    "PharmaCo USA": ("USA", 1.35), "MedSupply Inc": ("USA", 1.20), "ValueMeds Direct": ("USA", 0.80),
    "Lone Star Pharmaceuticals": ("USA", 1.10), "VedaRx Labs": ("India", 0.70), "Bharat Remedies": ("India", 0.60),
    "Sunrise Biotech": ("India", 0.75), "Rhein Pharma": ("Germany", 1.25), "NordMed": ("Germany", 1.15),
    "Maple Leaf Generics": ("Canada", 0.90), "Celtic BioPharm": ("Ireland", 1.05), "Alpine Health AG": ("Switzerland", 1.45),
    "Negev Pharma": ("Israel", 0.95), "Kansai Medical": ("Japan", 1.30), "Thames Generics": ("United Kingdom", 1.00),
    "Harmony Labs": ("Canada", 0.85),
}
BRAND_ENDINGS = ["ex", "ora", "ivan", "elle", "ix", "ona", "um", "aro", "en", "ida", "ax", "olin", "eva", "is",
                 "ara", "ic"]

# the interaction table: primary -> other -> (severity, risk score, overlap hours, hold, emergency, action)
INTERACTIONS: dict[str, dict[str, tuple[str, int, int, tuple[str, ...], bool, str]]] = {
    "Sertraline": {
        "Warfarin": ("high", 9, 36, ("Warfarin",), True, "Bleeding risk rises; the prescriber must review before the next warfarin dose."),
        "Aspirin": ("moderate", 6, 24, ("Aspirin",), False, "Hold aspirin for 24 hours and watch for unusual bruising."),
        "Escitalopram": ("high", 8, 48, ("Escitalopram",), True, "Two serotonergic drugs together; urgent prescriber review is needed."),
        "Metoprolol": ("low", 3, 12, (), False, "Watch for a slow pulse; no change is usually needed."),
        "Zolpidem": ("moderate", 5, 12, ("Zolpidem",), False, "Skip tonight's zolpidem dose and report drowsiness to the care team."),
    },
    "Warfarin": {
        "Aspirin": ("high", 8, 30, ("Aspirin",), True, "Combined blood thinning; the cardiology team must be contacted today."),
        "Rosuvastatin": ("moderate", 6, 24, (), False, "INR should be checked more often while both are taken."),
        "Simvastatin": ("moderate", 5, 24, (), False, "INR should be checked at the next scheduled test."),
        "Omeprazole": ("low", 2, 12, (), False, "No action needed beyond routine INR checks."),
        "Prednisone": ("moderate", 6, 48, (), False, "Steroid courses can shift INR; an extra INR check is advised."),
    },
    "Bupropion": {
        "Zolpidem": ("low", 2, 8, (), False, "No significant interaction expected; note any trouble sleeping."),
        "Escitalopram": ("moderate", 5, 24, (), False, "The prescriber should review the combination at the next visit."),
        "Metoprolol": ("moderate", 4, 24, (), False, "Bupropion can raise metoprolol levels; watch for dizziness."),
    },
    "Prednisone": {
        "Metformin": ("moderate", 5, 48, (), False, "Blood sugar may run higher; check glucose more often during the course."),
        "Insulin Glargine": ("moderate", 6, 48, (), False, "Blood sugar may rise; the prescriber may adjust the insulin dose."),
        "Aspirin": ("moderate", 4, 24, (), False, "Stomach irritation is more likely; take with food."),
    },
    "Apixaban": {
        "Aspirin": ("high", 8, 24, ("Aspirin",), True, "Combined anticoagulant and antiplatelet; the prescriber must be reached today."),
        "Sertraline": ("moderate", 5, 24, (), False, "Bleeding risk is somewhat higher; report any unusual bleeding."),
    },
}

# condition -> (medications it may be treated with, specialist who follows it, monitoring device type)
CONDITIONS: dict[str, tuple[tuple[str, ...], str, str | None]] = {
    "Type 2 diabetes": (("Metformin", "Insulin Glargine"), "Endocrinology", "Continuous Glucose Monitor"),
    "Hypertension": (("Lisinopril", "Amlodipine", "Losartan", "Hydrochlorothiazide", "Metoprolol"), "Cardiology", "Blood Pressure Monitor"),
    "Hyperlipidemia": (("Atorvastatin", "Rosuvastatin", "Simvastatin", "Ezetimibe"), "Cardiology", None),
    "Atrial fibrillation": (("Warfarin", "Apixaban", "Metoprolol"), "Cardiology", "Cardiac Event Monitor"),
    "Coronary artery disease": (("Aspirin", "Atorvastatin"), "Cardiology", "Cardiac Event Monitor"),
    "Depression": (("Sertraline", "Escitalopram", "Bupropion"), "Psychiatry", None),
    "Generalized anxiety disorder": (("Sertraline", "Escitalopram"), "Psychiatry", None),
    "Insomnia": (("Zolpidem",), "Sleep Medicine", None),
    "Obstructive sleep apnea": ((), "Sleep Medicine", "CPAP Machine"),
    "Hypothyroidism": (("Levothyroxine",), "Endocrinology", None),
    "GERD": (("Omeprazole",), "Gastroenterology", None),
    "Asthma": (("Albuterol", "Montelukast", "Prednisone"), "Pulmonology", "Pulse Oximeter"),
    "Peripheral neuropathy": (("Gabapentin",), "Neurology", None),
    "Epilepsy": ((), "Neurology", "Wearable EEG"),
    "Eczema": ((), "Dermatology", None),
    "Osteoarthritis": ((), "Orthopedics", None),
}
ALLERGIES = ["Penicillin", "Sulfa drugs", "Latex", "Peanuts", "Shellfish", "Codeine", "Ibuprofen", "Iodine contrast"]

INSURERS = ["Blue Cross Blue Shield", "Aetna", "UnitedHealthcare", "Cigna", "Humana", "Kaiser Permanente", "Oscar Health"]
INSURER_CODES = {"Blue Cross Blue Shield": "BCBS", "Aetna": "AET", "UnitedHealthcare": "UHC", "Cigna": "CIG",
                 "Humana": "HUM", "Kaiser Permanente": "KP", "Oscar Health": "OSC"}
COPAYS_PRIMARY = [10.0, 15.0, 20.0, 25.0, 30.0]
COPAYS_SPECIALIST = [35.0, 40.0, 45.0, 50.0, 60.0, 75.0]
RELATIONSHIPS = ["spouse", "partner", "mother", "father", "sister", "brother", "daughter", "son", "friend"]
LOCAL_PHARMACIES = ["Main Street Pharmacy", "Lakeshore Specialty Pharmacy", "CityCare Pharmacy", "Greenway Drugs",
                    "Harbor Pharmacy", "Northside Community Pharmacy", "Riverbend Apothecary", "CareLine Mail Pharmacy"]

# device type -> (id prefix, first number)
DEVICE_TYPES: dict[str, tuple[str, int]] = {
    "Cardiac Event Monitor": ("CEM", 4501), "Continuous Glucose Monitor": ("CGM", 2201),
    "Blood Pressure Monitor": ("BPM", 7301), "Pulse Oximeter": ("OXM", 6101), "CPAP Machine": ("CPAP", 3401),
    "Wearable EEG": ("EEG", 1801),
}
DEVICE_NOTES = {
    "available": ["Ready for dispatch", "Cleaned and boxed", "Spare unit, fully charged", "Passed quality check"],
    "inspection": ["Awaiting quality sign-off", "Returned, checking for damage", "Sensor test pending"],
    "maintenance": ["Battery replacement pending", "Firmware update in progress", "Calibration scheduled"],
    "missing_overdue": ["Not returned after monitoring period", "Return label sent twice, no response"],
    "deployed": ["In use at the patient's home", "Active home monitoring"],
    "shipped": ["In transit to the patient", "Out for delivery"],
}

# specialty -> (visit reasons, record types)
VISIT_REASONS: dict[str, list[str]] = {
    "Primary Care": ["annual physical", "cough and sore throat", "blood pressure check", "medication review", "fatigue"],
    "Cardiology": ["palpitations", "cholesterol follow-up", "chest tightness on exertion", "blood pressure review"],
    "Dermatology": ["itchy rash on forearms", "mole check", "eczema flare"],
    "Psychiatry": ["anxiety follow-up", "medication check-in", "trouble sleeping and low mood"],
    "Endocrinology": ["glucose readings review", "thyroid follow-up", "insulin dose review"],
    "Pediatrics": ["well-child visit", "ear pain", "fever follow-up"],
    "Pharmacy": ["medication reconciliation", "refill coordination", "supplier change review"],
    "Neurology": ["numbness in feet", "seizure follow-up", "headaches"],
    "Pulmonology": ["wheezing at night", "inhaler technique review", "shortness of breath"],
    "Gastroenterology": ["heartburn after meals", "reflux follow-up"],
    "Orthopedics": ["knee pain", "shoulder stiffness"],
    "Rheumatology": ["joint swelling", "morning stiffness"],
    "Oncology": ["survivorship check-in", "lab results review"],
    "Nephrology": ["kidney function review", "swelling in ankles"],
    "Obstetrics and Gynecology": ["annual exam", "prenatal check-in"],
    "Ophthalmology": ["blurry vision", "dry eyes"],
    "Otolaryngology": ["sinus congestion", "ringing in ears"],
    "Urology": ["frequent urination", "follow-up on lab results"],
    "Sleep Medicine": ["CPAP follow-up", "trouble falling asleep"],
    "Physical Therapy": ["lower back exercises", "post-injury rehab check"],
}
RECORD_TYPES = ["consultation_note", "follow_up_note", "telehealth_follow_up", "medication_review"]
