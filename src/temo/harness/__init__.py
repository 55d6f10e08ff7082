"""The episode harness: orchestrator, grader, runner, run store."""
