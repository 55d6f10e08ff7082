// The trajectory viewer of `temo report`: filter cells, open one to read it. No dependencies.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("temo-data").textContent);
  var cells = data.cells;
  var tbody = document.querySelector("#cells tbody");
  var detail = document.getElementById("cell-detail");
  var filtersBox = document.getElementById("filters");
  var FILTERS = [
    ["run", "Run", function (c) { return String(c.run); }, function (v) { return data.runs[+v].name; }],
    ["domain", "Domain", function (c) { return c.domain; }],
    ["family", "Family", function (c) { return c.family; }],
    ["condition", "Emotion", function (c) { return c.condition.split(".")[0]; }],
    ["arm", "Arm", function (c) { return c.arm; }],
    ["reward", "Reward", function (c) { return String(c.reward); }],
    ["fault", "Fault", function (c) { return c.fault || "none"; }]
  ];
  var state = { filters: {}, search: "", visible: [], selected: -1 };

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) { for (var k in attrs) { if (k === "class") { e.className = attrs[k]; } else { e.setAttribute(k, attrs[k]); } } }
    if (text !== undefined && text !== null) { e.textContent = text; }
    return e;
  }

  function buildFilters() {
    FILTERS.forEach(function (f) {
      var values = {};
      cells.forEach(function (c) { values[f[2](c)] = true; });
      var label = el("label", null, f[1] + " ");
      var sel = el("select", { id: "filter-" + f[0], "data-filter": f[0] });
      sel.appendChild(el("option", { value: "" }, "all"));
      Object.keys(values).sort().forEach(function (v) {
        sel.appendChild(el("option", { value: v }, f[3] ? f[3](v) : v));
      });
      sel.addEventListener("change", function () { state.filters[f[0]] = sel.value; render(); });
      label.appendChild(sel);
      filtersBox.appendChild(label);
    });
    var search = el("input", { id: "filter-search", type: "search", placeholder: "search task or text" });
    search.addEventListener("input", function () { state.search = search.value.toLowerCase(); render(); });
    filtersBox.appendChild(search);
    filtersBox.appendChild(el("span", { id: "cell-count", class: "note" }));
  }

  function matches(c) {
    for (var i = 0; i < FILTERS.length; i++) {
      var f = FILTERS[i], want = state.filters[f[0]];
      if (want && f[2](c) !== want) { return false; }
    }
    if (state.search) {
      var hay = (c.id + " " + c.task).toLowerCase();
      if (hay.indexOf(state.search) < 0) {
        var text = c.detail.messages.map(function (m) { return m.content || ""; }).join(" ").toLowerCase();
        if (text.indexOf(state.search) < 0) { return false; }
      }
    }
    return true;
  }

  function render() {
    state.visible = [];
    tbody.textContent = "";
    cells.forEach(function (c, i) {
      if (!matches(c)) { return; }
      state.visible.push(i);
      var tr = el("tr", { "data-index": String(i), "data-cell": c.id });
      [data.runs[c.run].name, c.id, c.domain, c.family, c.arm, String(c.reward), c.fault || "", String(c.turns)].forEach(function (v, j) {
        var td = el("td", j === 5 ? { class: "r" + c.reward } : null, v);
        tr.appendChild(td);
      });
      tr.addEventListener("click", function () { open(i); });
      tbody.appendChild(tr);
    });
    document.getElementById("cell-count").textContent = state.visible.length + " of " + cells.length + " cells";
    markSelected();
  }

  function markSelected() {
    Array.prototype.forEach.call(tbody.querySelectorAll("tr"), function (tr) {
      tr.classList.toggle("selected", +tr.getAttribute("data-index") === state.selected);
    });
  }

  function section(title) { var d = el("div"); d.appendChild(el("h3", null, title)); return d; }

  function showVerdict(box, c) {
    var v = c.detail.verdict;
    if (!v) { box.appendChild(el("p", { class: "note" }, c.reward === 1 ? "Passed; nothing to judge." : "Not judged (" + c.termination + ").")); return; }
    var d = el("div", { class: "verdict" + (v.failed ? "" : " ok"), id: "verdict" });
    if (v.critical) {
      d.appendChild(el("div", null, "Critical fault (" + v.judge + " judge): " + v.critical.fault + " [" + v.critical.category + "], turn " + v.critical.turn));
      d.appendChild(el("div", { class: "note" }, v.critical.reason));
    }
    var eo = v.emotional_outcome || {};
    d.appendChild(el("div", null, "Emotional outcome: " + (eo.abandoned ? "abandoned (" + eo.reason + ")" : "not abandoned") + (eo.explanation ? " — " + eo.explanation : "")));
    if (v.faults && v.faults.length > 1) {
      var ul = el("ul");
      v.faults.forEach(function (f) { ul.appendChild(el("li", null, f.fault + " (" + f.severity + ", turn " + f.turn + "): " + f.reason)); });
      d.appendChild(ul);
    }
    box.appendChild(d);
  }

  function showDiff(box, c) {
    var diff = c.detail.replay_diff || [];
    if (!diff.length) {
      if (c.detail.state_match === false) {
        box.appendChild(el("p", { class: "note" }, "The final state differs from the reference; run `temo judge RUN --diff` and rebuild the report to see the fields."));
      }
      return;
    }
    var s = section("Replay diff: agent state vs reference (" + diff.length + " field(s))");
    var t = el("table", { class: "diff", id: "replay-diff" });
    var h = el("tr");
    ["table", "key", "field", "agent", "reference"].forEach(function (x) { h.appendChild(el("th", null, x)); });
    t.appendChild(h);
    diff.forEach(function (r) {
      var tr = el("tr");
      [r.table, r.key, r.field || r.change, JSON.stringify(r.agent), JSON.stringify(r.reference)].forEach(function (x) { tr.appendChild(el("td", null, x)); });
      t.appendChild(tr);
    });
    s.appendChild(t);
    box.appendChild(s);
  }

  function showMessages(box, c) {
    var s = section("Conversation");
    c.detail.messages.forEach(function (m) {
      var d = el("div", { class: "msg " + m.role });
      var who = m.role === "tool" ? "result of " + m.name : m.role + (m.turn ? " · turn " + m.turn : "");
      d.appendChild(el("span", { class: "who" }, who));
      if (m.reasoning) {
        var r = el("details", { class: "reasoning" });
        r.appendChild(el("summary", null, "reasoning"));
        r.appendChild(el("div", null, m.reasoning));
        d.appendChild(r);
      }
      if (m.role === "tool" && (m.content || "").length > 400) {
        var det = el("details", { class: "result" });
        det.appendChild(el("summary", null, (m.content || "").slice(0, 160) + " …"));
        det.appendChild(el("div", null, m.content));
        d.appendChild(det);
      } else if (m.content) {
        d.appendChild(el("div", null, m.content));
      }
      (m.tool_calls || []).forEach(function (tc) { d.appendChild(el("div", { class: "tool-call" }, tc.name + "(" + tc.arguments + ")")); });
      s.appendChild(d);
    });
    box.appendChild(s);
  }

  function open(i) {
    var c = cells[i];
    state.selected = i;
    markSelected();
    detail.textContent = "";
    var title = el("h3", { id: "detail-title" }, c.id + " · " + data.runs[c.run].name);
    var link = el("a", { class: "permalink", href: "#cell=" + encodeURIComponent(data.runs[c.run].name + "/" + c.id) }, "link");
    title.appendChild(link);
    detail.appendChild(title);
    detail.appendChild(el("div", { class: "note" }, "domain " + c.domain + " · arm " + c.arm + " · trial " + c.trial + " · condition " + c.condition +
      " · reward " + c.reward + " · ended " + c.termination + " · " + c.tool_calls + " tool call(s)"));
    showVerdict(detail, c);
    if (c.detail.emotion_instruction) {
      var e = section("User's emotion instruction");
      e.appendChild(el("div", { class: "emotion" }, c.detail.emotion_instruction));
      detail.appendChild(e);
    }
    if (c.detail.missing_outputs && c.detail.missing_outputs.length) {
      detail.appendChild(el("p", null, "Required outputs never said: " + c.detail.missing_outputs.join("; ")));
    }
    if (c.detail.violations.length) {
      detail.appendChild(el("p", null, "Policy violations: " + c.detail.violations.map(function (v) { return v.rule + " (turn " + v.turn + ", " + v.detail + ")"; }).join("; ")));
    }
    showDiff(detail, c);
    showMessages(detail, c);
    var ref = section("Reference actions");
    var ol = el("ol");
    c.detail.reference.forEach(function (a) { ol.appendChild(el("li", { class: "tool-call" }, a.name + "(" + JSON.stringify(a.arguments) + ")")); });
    ref.appendChild(ol);
    detail.appendChild(ref);
    detail.scrollTop = 0;
    var row = tbody.querySelector('tr[data-index="' + i + '"]');
    if (row && row.scrollIntoView) { row.scrollIntoView({ block: "nearest" }); }
  }

  function move(step) {
    if (!state.visible.length) { return; }
    var pos = state.visible.indexOf(state.selected);
    pos = pos < 0 ? 0 : Math.max(0, Math.min(state.visible.length - 1, pos + step));
    open(state.visible[pos]);
  }

  document.addEventListener("keydown", function (ev) {
    var tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") { return; }
    if (ev.key === "j" || ev.key === "ArrowDown") { move(1); ev.preventDefault(); }
    else if (ev.key === "k" || ev.key === "ArrowUp") { move(-1); ev.preventDefault(); }
    else if (ev.key === "/") { document.getElementById("filter-search").focus(); ev.preventDefault(); }
  });

  function fromHash() {
    var m = /cell=([^&]+)/.exec(location.hash || "");
    if (!m) { return; }
    var want = decodeURIComponent(m[1]);
    for (var i = 0; i < cells.length; i++) {
      if (data.runs[cells[i].run].name + "/" + cells[i].id === want) { open(i); return; }
    }
  }

  buildFilters();
  render();
  fromHash();
  window.addEventListener("hashchange", fromHash);
  window.temoViewer = { open: open, state: state, render: render };
})();
