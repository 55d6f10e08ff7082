"""Metrics of a run: Avg@k, Pass^k, pass@k, per domain, emotion family and arm (pure: no harness).

    from temo.metrics import summarize, pass_hat_k
    report = summarize(records, planned_cells=config.cells(), trials=config.trials)
"""
from .formulas import mean, mean_pass_at_k, mean_pass_hat_k, pass_at_k, pass_hat_k, success_rate
from .importers import (
    IMPORT_FORMATS, ImportFormatError, ImportResult, family_of_label, load_results, load_taubench,
    parse_taubench,
)
from .render import print_report
from .summary import (
    ARMS, CellResult, arm_block, average_blocks, cell_from_record, family_blocks, paired_delta, summarize,
    to_cells,
)

__all__ = [
    "ARMS", "CellResult", "IMPORT_FORMATS", "ImportFormatError", "ImportResult", "arm_block", "average_blocks",
    "cell_from_record", "family_blocks", "family_of_label", "load_results", "load_taubench", "mean",
    "mean_pass_at_k", "mean_pass_hat_k", "paired_delta", "parse_taubench", "pass_at_k", "pass_hat_k",
    "print_report", "success_rate", "summarize", "to_cells",
]
