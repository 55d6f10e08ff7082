"""`temo view`: the trajectory viewer of one or more runs, served on a local port."""
from __future__ import annotations

import tempfile
from pathlib import Path

import typer

from .common import fail


def make_server(folder: Path, port: int):
    """An HTTP server for ``folder`` on 127.0.0.1 (port 0: any free port)."""
    import functools
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:  # noqa: D401 - keep the terminal clean
            pass

    return ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Quiet, directory=str(folder)))


def view_command(
    runs: list[Path] = typer.Argument(..., help="One or more run directories.", show_default=False),
    port: int = typer.Option(8765, "--port", min=0, max=65535, help="Local port (0: any free port)."),
    viewer_cells: int = typer.Option(5000, "--viewer-cells", min=1, help="At most this many cells (failed cells first)."),
) -> None:
    """Serve the report of RUN (metrics, plots, faults, analyses and the trajectory viewer) at
    http://127.0.0.1:PORT/ until Ctrl-C. Only this machine can reach it.

    The viewer: filter by run, domain, family, emotion, arm, reward, fault; click a cell (or j/k)
    to read it; each cell has a link (#cell=RUN/CELL). `temo report` writes the same page to a file.

    Example: temo view runs/qwen3-8b --port 8000
    """
    from ..analysis.cells import RunReadError
    from ..analysis.report import build_report

    folder = Path(tempfile.mkdtemp(prefix="temo-view-"))
    try:
        build_report(list(runs), folder / "index.html", viewer_limit=viewer_cells, figures_dir=folder / "figures")
    except RunReadError as e:
        fail(str(e))
    try:
        server = make_server(folder, port)
    except OSError as e:
        fail(f"--port {port}: cannot listen ({e.strerror or e})")
    typer.echo(f"serving {', '.join(str(r) for r in runs)} at http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
