"""User simulators: scripted (offline) and LLM (emotion-conditioned)."""
