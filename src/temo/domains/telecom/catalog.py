"""The telecom catalog: 15 services (plans and packages) and 19 device models, at the released sizes.

Service ids, names, categories and prices follow the public environment this domain comes from;
``max_devices`` (how many devices one subscription can carry) and ``eligibility`` (who may
subscribe) are this project's additions, stated in the policy and enforced by ``manage_service``.
"""
from __future__ import annotations

# service_id: (name, category, monthly price, max devices, eligibility)
SERVICES: dict[str, tuple[str, str, float, int, str]] = {
    "mobile_unlimited": ("Unlimited Mobile Plan", "mobile", 85.0, 1, "all"),
    "mobile_family_4lines": ("Family Plan - 4 Lines", "mobile", 160.0, 4, "all"),
    "mobile_business_10lines": ("Business Mobile - 10 Lines", "mobile", 450.0, 10, "business"),
    "mobile_basic": ("Basic Mobile Plan", "mobile", 35.0, 1, "all"),
    "mobile_senior": ("Senior Mobile Plan", "mobile", 45.0, 1, "senior"),
    "internet_fiber_1gb": ("Fiber Internet 1GB", "internet", 80.0, 2, "all"),
    "internet_fiber_2gb": ("Fiber Internet 2GB", "internet", 120.0, 2, "all"),
    "internet_fiber_500mb": ("Fiber Internet 500MB", "internet", 60.0, 2, "all"),
    "internet_cable_500mb": ("Cable Internet 500MB", "internet", 55.0, 2, "all"),
    "internet_cable_100mb": ("Cable Internet 100MB", "internet", 35.0, 2, "all"),
    "tv_premium": ("Premium TV Package", "tv", 95.0, 4, "all"),
    "tv_basic": ("Basic TV Package", "tv", 45.0, 4, "all"),
    "tv_sports_package": ("Sports TV Package", "tv", 75.0, 4, "all"),
    "business_phone_system": ("Business Phone System", "phone", 150.0, 4, "business"),
    "home_security": ("Home Security System", "security", 40.0, 2, "all"),
}

# device model name: (category, manufacturer, model)
DEVICES: dict[str, tuple[str, str, str]] = {
    "iPhone 15 Pro": ("mobile_phone", "Apple", "iPhone 15 Pro"),
    "iPhone 14": ("mobile_phone", "Apple", "iPhone 14"),
    "iPhone 13": ("mobile_phone", "Apple", "iPhone 13"),
    "Samsung Galaxy S23": ("mobile_phone", "Samsung", "Galaxy S23"),
    "iPhone 12": ("mobile_phone", "Apple", "iPhone 12"),
    "iPhone 15": ("mobile_phone", "Apple", "iPhone 15"),
    "Google Pixel 8": ("mobile_phone", "Google", "Pixel 8"),
    "Samsung Galaxy A54": ("mobile_phone", "Samsung", "Galaxy A54"),
    "iPhone SE (3rd gen)": ("mobile_phone", "Apple", "iPhone SE"),
    "WiFi 6 Router": ("networking", "TechCorp", "WiFi6-Pro"),
    "Standard WiFi Router": ("networking", "TechCorp", "WiFi-Standard"),
    "Enterprise Router": ("networking", "TechCorp", "Enterprise-Pro"),
    "Basic WiFi Router": ("networking", "TechCorp", "WiFi-Basic"),
    'Samsung 65" Smart TV': ("tv", "Samsung", "QN65Q80C"),
    "HD Cable Box": ("tv", "TechCorp", "HD-Box-Pro"),
    '55" Smart TV': ("tv", "LG", "OLED55C3"),
    "Conference Room TV": ("tv", "Samsung", "QB75R"),
    "Conference Phone System": ("phone", "Polycom", "Trio-8800"),
    "Home Security System": ("security", "SecureTech", "HomeSafe-Pro"),
}


def service_records() -> dict[str, dict]:
    return {sid: {"service_id": sid, "name": n, "category": c, "price": p, "max_devices": m, "eligibility": e}
            for sid, (n, c, p, m, e) in SERVICES.items()}


def device_records() -> dict[str, dict]:
    return {name: {"name": name, "category": c, "manufacturer": mf, "model": md}
            for name, (c, mf, md) in DEVICES.items()}
