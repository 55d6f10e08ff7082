"""`temo report`: a self-contained HTML file; the trajectory viewer in a real headless Chromium."""
from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

import browser
from temo.cli.app import app

runner = CliRunner()
SECTIONS = ("runs", "metrics", "plots", "faults", "analyses", "viewer")


@pytest.fixture(scope="module")
def report(runs, tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "compare.html"
    res = runner.invoke(app, ["report", str(runs["probe:wrong-argument"]), str(runs["probe:redundant-questions"]),
                              "--out", str(out), "--json"])
    assert res.exit_code == 0, res.output
    return out, json.loads(res.output)


def test_report_is_one_offline_file_with_every_section_and_svg_figures(report):
    out, written = report
    html = out.read_text()
    for sid in SECTIONS:
        assert f'id="{sid}"' in html
    assert not re.search(r'<(script|link|img)[^>]+(src|href)=["\']https?:', html)  # nothing fetched
    assert "<svg" in html and written["viewer_cells"] == 16
    names = {Path(p).name for p in written["figures"]}
    assert {"pass_hat_k.svg", "emotion_delta.svg", "fault_categories.svg", "interaction.svg",
            "family_domain_1.svg", "family_domain_2.svg"} <= names
    for p in written["figures"]:
        root = ET.parse(p).getroot()
        assert root.tag.endswith("svg")
    # both runs side by side in the metrics table, and the fault table names the probes' faults
    assert html.count("wrong-argument (probe:wrong-argument)") >= 2
    faults = html[html.index('id="faults"'):html.index('id="analyses"')]
    assert "wrong_arguments" in faults and "friction" in faults


def test_bad_report_input(tmp_path):
    res = runner.invoke(app, ["report", str(tmp_path / "missing"), "--out", str(tmp_path / "r.html")])
    assert res.exit_code == 2 and "no such run directory" in res.output
    res = runner.invoke(app, ["report", str(tmp_path), "--out", str(tmp_path)])
    assert res.exit_code == 2 and "is a directory" in res.output


@pytest.mark.skipif(not browser.available(), reason="no chromium installed (apt-get install chromium)")
def test_viewer_in_headless_chromium(report, tmp_path):
    out, _ = report
    shots = Path(os.environ.get("TEMO_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    with browser.Browser() as b:
        b.goto(out.as_uri())
        # every section is rendered and visible
        for sid in SECTIONS:
            assert b.js(f"document.getElementById('{sid}').getBoundingClientRect().height > 20"), sid
        assert b.js("document.querySelectorAll('#plots svg').length") >= 3
        rows = "document.querySelectorAll('#cells tbody tr').length"
        assert b.js(rows) == 16
        b.screenshot(shots / "report-top.png")

        def choose(filter_id, value):
            b.js(f"var s=document.getElementById('{filter_id}'); s.value={json.dumps(value)}; s.dispatchEvent(new Event('change')); 1")

        # filter to the failures of the wrong-argument run, in retail
        choose("filter-run", "0")
        assert b.js(rows) == 8
        choose("filter-reward", "0")
        failures = b.js(rows)
        assert 0 < failures <= 8
        assert b.js("Array.from(document.querySelectorAll('#cells tbody tr td:nth-child(6)')).every(td => td.textContent === '0')")
        choose("filter-domain", "retail")
        assert b.js(rows) <= failures
        assert b.js("document.getElementById('cell-count').textContent").startswith(f"{b.js(rows)} of 16")

        # open one: the conversation shows its tool calls, the verdict and the replay diff
        b.js("document.querySelector('#cells tbody tr').click(); 1")
        b.wait_for("!!document.getElementById('detail-title')")
        cell_id = b.js("document.querySelector('#cells tbody tr.selected').dataset.cell")
        assert b.js("document.getElementById('detail-title').textContent").startswith(cell_id)
        tool_calls = b.js("Array.from(document.querySelectorAll('#cell-detail .msg.assistant .tool-call')).map(e => e.textContent)")
        assert tool_calls and any(t.startswith("get_") or t.startswith("find_") for t in tool_calls)
        assert "wrong_arguments" in b.js("document.getElementById('verdict').textContent")
        assert b.js("document.querySelectorAll('#cell-detail .msg.user').length") >= 1
        assert b.js("document.querySelectorAll('#cell-detail .msg.tool').length") == len(tool_calls)
        diff_rows = b.js("document.querySelectorAll('#replay-diff tr').length")
        assert diff_rows >= 2  # header + at least one differing field
        b.js("document.getElementById('viewer').scrollIntoView(); 1")
        b.screenshot(shots / "viewer-cell.png")

        # keyboard: j moves to the next visible cell
        before = b.js("window.temoViewer.state.selected")
        b.js("document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'j', bubbles: true})); 1")
        if b.js(rows) > 1:
            assert b.js("window.temoViewer.state.selected") != before

        # a cell's link opens it
        choose("filter-run", "")
        choose("filter-reward", "")
        choose("filter-domain", "")
        row = "document.querySelectorAll('#cells tbody tr')[12]"
        target, run_name = b.js(f"{row}.dataset.cell"), b.js(f"{row}.cells[0].textContent")
        assert run_name.endswith("redundant-questions")
        b.js(f"location.hash = 'cell=' + encodeURIComponent({json.dumps(run_name + '/')} + {json.dumps(target)}); 1")
        b.wait_for(f"!!document.getElementById('detail-title') && document.getElementById('detail-title').textContent.startsWith({json.dumps(target)})")
        assert "friction" in b.js("document.getElementById('verdict').textContent")
    assert (shots / "viewer-cell.png").stat().st_size > 10_000
    print(f"screenshots: {shots / 'report-top.png'}, {shots / 'viewer-cell.png'}")


def test_view_serves_the_report_on_a_local_port(report):
    import threading
    import urllib.request

    from temo.cli.view import make_server

    out, _ = report
    server = make_server(out.parent, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/{out.name}"
        with urllib.request.urlopen(url, timeout=10) as r:
            body = r.read().decode()
        assert r.status == 200 and 'id="temo-data"' in body and 'id="viewer"' in body
    finally:
        server.shutdown()
        server.server_close()
