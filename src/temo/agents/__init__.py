"""Agents: oracle, probes, and the LLM tool-calling agent."""
