"""temo: tau-Emotion-Bench and Tracer in Python."""
__version__ = "0.1.0"
