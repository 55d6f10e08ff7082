"""Entry point of the `temo` command. Subcommands live in their own modules and are imported
lazily, so `temo --help` and `temo run` start fast."""
from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="temo",
    help=(
        "tau-Emotion-Bench and Tracer: evaluate tool-calling agents against emotion-conditioned "
        "simulated users, and build interaction-aware training data.\n\n"
        "Start with `temo run` (offline: oracle agent, scripted users) and `temo metrics RUN`."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# (module, attribute, name): typer sub-apps are mounted as groups, functions as commands.
_COMMANDS = [
    ("temo.cli.run", "run_command", "run"),
    ("temo.cli.metrics", "metrics_command", "metrics"),
    ("temo.cli.regrade", "regrade_command", "regrade"),
    ("temo.cli.show", "show_command", "show"),
    ("temo.cli.judge", "judge_command", "judge"),
    ("temo.cli.analyze", "analyze_command", "analyze"),
    ("temo.cli.report", "report_command", "report"),
    ("temo.cli.view", "view_command", "view"),
    ("temo.cli.fidelity", "fidelity_command", "fidelity"),
    ("temo.cli.collect", "collect_command", "collect"),
]
_GROUPS = [
    ("temo.cli.domains", "app", "domains", "The domains: tools, databases, tool graphs, task counts."),
    ("temo.cli.tracer", "app", "tracer", "Tracer: build tasks from tool-graph walks (sample, ground, instruct, feel, condition, verify, build)."),
    ("temo.cli.tasks", "app", "tasks", "Inspect task sets."),
    ("temo.cli.emotion", "app", "emotion", "The emotion model: taxonomy, anchors, feeling-to-condition mapping."),
    ("temo.cli.export", "app", "export", "Export collected trajectories as training data (TRL conversational format), or a run's cells as a table."),
    ("temo.cli.train", "app", "train", "Fine-tune a model on exported trajectories (needs the extra: pip install 'temo[train]')."),
]


def _mount() -> None:
    for module, attr, name in _COMMANDS:
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name == module:
                continue
            raise
        app.command(name)(getattr(mod, attr))
    for module, attr, name, help_text in _GROUPS:
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name == module:
                continue
            raise
        app.add_typer(getattr(mod, attr), name=name, help=help_text)




@app.callback()
def _root() -> None:
    """tau-Emotion-Bench and Tracer."""


_mount()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
