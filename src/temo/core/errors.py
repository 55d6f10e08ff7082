"""Errors shared across layers."""


class InfrastructureError(RuntimeError):
    """An endpoint failed after its retries (down, rate limit exhausted, timeouts).

    Not an agent failure: the harness ends the cell as `infra_error`, the run store keeps it out of
    the metrics (reported as missing), and `--resume` runs it again.
    """
