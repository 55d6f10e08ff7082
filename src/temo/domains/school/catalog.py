"""The fixed catalogue the generator draws on: departments, their courses, buildings and time slots."""
from __future__ import annotations

# department name -> (code, school, [(number, title, credits)])
DEPARTMENTS: dict[str, tuple[str, str, list[tuple[int, str, int]]]] = {
    "Computer Science": ("CS", "School of Engineering", [
        (1010, "Introduction to Programming", 4), (2100, "Data Structures", 4), (2400, "Computer Organization", 3),
        (3200, "Algorithms", 3), (3600, "Databases", 3), (4500, "Machine Learning", 3), (5100, "Distributed Systems", 3)]),
    "Mathematics": ("MATH", "School of Arts and Sciences", [
        (1200, "Calculus I", 4), (1300, "Calculus II", 4), (2200, "Linear Algebra", 3), (2500, "Discrete Mathematics", 3),
        (3100, "Real Analysis", 3), (4200, "Abstract Algebra", 3)]),
    "Statistics": ("STAT", "School of Arts and Sciences", [
        (1100, "Statistical Reasoning", 3), (2300, "Probability", 3), (3300, "Regression Analysis", 3),
        (4400, "Bayesian Methods", 3), (5200, "Statistical Learning", 3)]),
    "Physics": ("PHYS", "School of Arts and Sciences", [
        (1100, "Mechanics", 4), (1200, "Electricity and Magnetism", 4), (2300, "Modern Physics", 3),
        (3400, "Quantum Mechanics", 3), (1050, "Physics Lab", 1)]),
    "Chemistry": ("CHEM", "School of Arts and Sciences", [
        (1100, "General Chemistry", 4), (2100, "Organic Chemistry I", 4), (2200, "Organic Chemistry II", 4),
        (3300, "Physical Chemistry", 3), (1150, "Chemistry Lab", 1)]),
    "Biology": ("BIO", "School of Arts and Sciences", [
        (1100, "Cell Biology", 4), (1200, "Ecology and Evolution", 3), (2300, "Genetics", 3),
        (3100, "Microbiology", 4), (3500, "Neuroscience", 3), (4200, "Immunology", 3)]),
    "Environmental Science": ("ENVS", "School of Arts and Sciences", [
        (1000, "Earth Systems", 3), (2100, "Climate and Society", 3), (3200, "Water Resources", 3),
        (3400, "Field Methods", 2)]),
    "Psychology": ("PSY", "School of Arts and Sciences", [
        (1000, "Introduction to Psychology", 3), (2100, "Developmental Psychology", 3),
        (2400, "Research Methods", 3), (3200, "Cognitive Psychology", 3), (3500, "Social Psychology", 3)]),
    "Sociology": ("SOC", "School of Arts and Sciences", [
        (1000, "Introduction to Sociology", 3), (2200, "Social Inequality", 3), (3100, "Urban Sociology", 3),
        (3300, "Sociology of Health", 3)]),
    "Economics": ("ECON", "School of Arts and Sciences", [
        (1100, "Principles of Microeconomics", 3), (1200, "Principles of Macroeconomics", 3),
        (2300, "Intermediate Microeconomics", 3), (3400, "Econometrics", 3), (4100, "Development Economics", 3)]),
    "Political Science": ("POLS", "School of Arts and Sciences", [
        (1000, "American Government", 3), (2100, "Comparative Politics", 3), (2300, "International Relations", 3),
        (3400, "Public Policy", 3)]),
    "History": ("HIST", "School of Arts and Sciences", [
        (1100, "World History to 1500", 3), (1200, "World History since 1500", 3), (2300, "History of the Americas", 3),
        (3100, "Modern Europe", 3), (3600, "History of Science", 3)]),
    "English": ("ENGL", "School of Arts and Sciences", [
        (1000, "College Writing", 3), (2100, "British Literature", 3), (2200, "American Literature", 3),
        (3300, "Creative Writing", 3), (3500, "Shakespeare", 3)]),
    "Philosophy": ("PHIL", "School of Arts and Sciences", [
        (1000, "Introduction to Philosophy", 3), (1200, "Logic", 3), (2300, "Ethics", 3), (3100, "Philosophy of Mind", 3)]),
    "Linguistics": ("LING", "School of Arts and Sciences", [
        (1000, "Language and Mind", 3), (2100, "Phonetics", 3), (2200, "Syntax", 3), (3300, "Sociolinguistics", 3)]),
    "Music": ("MUS", "School of Arts and Sciences", [
        (1000, "Music Appreciation", 3), (1100, "Music Theory I", 3), (1500, "Choir", 1), (2200, "Jazz History", 3)]),
    "Art History": ("ARTH", "School of Arts and Sciences", [
        (1000, "Art of the Ancient World", 3), (2100, "Renaissance Art", 3), (2300, "Modern Art", 3), (3100, "Museum Studies", 3)]),
    "Business Administration": ("BUS", "School of Business", [
        (1000, "Introduction to Business", 3), (2100, "Marketing", 3), (2300, "Organizational Behavior", 3),
        (3200, "Operations Management", 3), (5100, "Strategic Management", 3)]),
    "Accounting": ("ACCT", "School of Business", [
        (1100, "Financial Accounting", 3), (1200, "Managerial Accounting", 3), (3100, "Auditing", 3), (3300, "Taxation", 3)]),
    "Mechanical Engineering": ("ME", "School of Engineering", [
        (1100, "Engineering Graphics", 2), (2100, "Statics", 3), (2300, "Thermodynamics", 3), (3200, "Fluid Mechanics", 3),
        (4100, "Machine Design", 3)]),
    "Electrical Engineering": ("EE", "School of Engineering", [
        (1100, "Circuits I", 4), (2100, "Signals and Systems", 3), (2300, "Digital Logic", 3), (3200, "Electronics", 4)]),
    "Nursing": ("NURS", "School of Health Sciences", [
        (1100, "Foundations of Nursing", 3), (2100, "Pharmacology", 3), (2200, "Health Assessment", 3),
        (3100, "Community Health", 3), (3300, "Nursing Ethics", 2)]),
}

CAMPUSES = ("Main", "North", "Downtown")
BUILDINGS = {
    "Main": ["Hartley Hall", "Reyes Science Center", "Olmstead Library", "Baker Hall"],
    "North": ["Engineering Annex", "Pine Pavilion", "Kessler Labs"],
    "Downtown": ["Market Street Center", "Civic Tower"],
}

# (days, start, end): regular fall/spring slots and compressed summer slots
REGULAR_SLOTS = [
    (["Mon", "Wed"], "08:00", "09:15"), (["Mon", "Wed"], "09:30", "10:45"), (["Mon", "Wed"], "11:00", "12:15"),
    (["Mon", "Wed"], "13:00", "14:15"), (["Mon", "Wed"], "14:30", "15:45"), (["Tue", "Thu"], "08:00", "09:15"),
    (["Tue", "Thu"], "09:30", "10:45"), (["Tue", "Thu"], "11:00", "12:15"), (["Tue", "Thu"], "13:00", "14:15"),
    (["Tue", "Thu"], "14:30", "15:45"), (["Mon", "Wed", "Fri"], "09:00", "09:50"),
    (["Mon", "Wed", "Fri"], "10:00", "10:50"), (["Mon", "Wed", "Fri"], "12:00", "12:50"),
    (["Tue"], "18:00", "20:45"), (["Thu"], "18:00", "20:45"), (["Wed"], "18:00", "20:45"), (["Fri"], "13:00", "15:45"),
    (["Sat"], "09:00", "11:45"),
]
SUMMER_SLOTS = [
    (["Mon", "Tue", "Wed", "Thu"], "09:00", "10:50"), (["Mon", "Tue", "Wed", "Thu"], "11:00", "12:50"),
    (["Mon", "Tue", "Wed", "Thu"], "13:30", "15:20"), (["Mon", "Wed"], "18:00", "20:30"),
    (["Tue", "Thu"], "18:00", "20:30"),
]

CANCEL_REASONS = ["instructor illness", "instructor at a conference", "family emergency of the instructor",
                  "room unavailable"]
WEATHER_CLOSURE = ("2025-02-12", "Main", "campus closed for snow")

BANKS = ["Chase", "Wells Fargo", "Bank of America", "Citibank", "US Bank", "PNC", "Capital One"]
CARD_BRANDS = ["Visa", "Mastercard", "American Express", "Discover"]
RELATIONSHIPS = ["mother", "father", "sister", "brother", "spouse", "partner", "guardian", "aunt"]
