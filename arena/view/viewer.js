/* cgarena replay viewer: the core (frames, controls, timeline, inputs and outputs, charts).
 *
 * The replay is the JSON in #replay-data. Frame 0 shows the initial snapshot; frame k (1..N)
 * shows replay.frames[k - 1]: the executions of that turn and the snapshot after it. Each game
 * registers a renderer in window.cgRenderers[game] before this script runs:
 *   { init(root, view), render(ctx), frameLabel(snapshot) -> text,
 *     charts: [{key, title, value(snapshot, player) -> number}],
 *     timeUnit: {name, of(snapshot, frame, k) -> number} }
 * timeUnit is the game's own clock (Spring: the day, Fall: the turn; default: the frame): the
 * charts' x axis counts it, and where a unit spans several frames (Spring's days) the controls
 * step by unit too. The URL's fragment #frame=K opens frame K and follows the frame shown.
 * Tests and scripts use window.cgView (frame, frameCount, goto, step, stepUnit, play, pause, ...).
 */
(function () {
  "use strict";

  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const frames = data.frames;
  const count = frames.length + 1;
  const players = (data.bots || []).length;
  const BASE_DELAY_MS = 350;

  // -- helpers ---------------------------------------------------------------------------------

  /* Text as a bot may have written it, shown: every control character (C0, DEL, C1) as its escape
   * (\x1b, \r...), newlines and tabs kept with `lines` (a <pre> block). */
  const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
  const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
  const NAMED = { "\t": "\\t", "\n": "\\n", "\r": "\\r" };
  function shown(value, lines) {
    return String(value).replace(lines ? CONTROL_BUT_LINES : CONTROL,
      (c) => NAMED[c] || "\\x" + c.charCodeAt(0).toString(16).padStart(2, "0"));
  }

  /* Text as HTML (put in with innerHTML): shown, then escaped, so that it stays text. */
  function esc(value, lines) {
    return shown(value, lines).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }

  function name(p) {
    const bot = data.bots[p];
    return bot && bot.name ? bot.name : "player " + p;
  }

  function who(p) {
    return '<span class="p' + p + '">' + esc(name(p)) + "</span>";
  }

  function snapshotAt(k) {
    return k <= 0 ? data.initial : frames[k - 1].snapshot;
  }

  function frameAt(k) {
    return k <= 0 ? null : frames[k - 1];
  }

  function $(testid) {
    return document.querySelector('[data-testid="' + testid + '"]');
  }

  /* The referee's lines: "$N" is player N, "¤RED¤...§RED§" a coloured span (possibly over several
   * lines). Returns HTML, one entry per line. */
  function formatLines(lines) {
    let open = false;
    return lines.map((line) => {
      const prefix = open ? '<span class="red">' : "";
      let out = esc(line).replace(/\$(\d+)/g, (m, p) => (Number(p) < players ? who(Number(p)) : m));
      out = out.replace(/[¤§]([A-Z_]+)[¤§]/g, (m) => {
        if (m[0] === "¤") {
          if (open) return "";
          open = true;
          return '<span class="red">';
        }
        if (!open) return "";
        open = false;
        return "</span>";
      });
      return prefix + out + (open ? "</span>" : "");
    });
  }

  const helpers = { esc, shown, name, who, formatLines, players };

  // -- verdicts --------------------------------------------------------------------------------

  function verdictKind(d, frame) {
    const final = data.result && data.result.players && data.result.players[d.player];
    if (final && final.status && final.status !== "ok") return final.status;
    if (d.cause === "invalid_input") return "invalid";
    if (d.cause === "eliminated") return "eliminated";
    const ex = (frame.executions || []).find((e) => e.player === d.player);
    if (ex && ex.status !== "timeout" && ex.status !== "line") return "crash";
    return "timeout";
  }

  const verdicts = [];
  frames.forEach((f, i) => {
    (f.deactivations || []).forEach((d) => {
      const final = data.result && data.result.players ? data.result.players[d.player] : null;
      verdicts.push({ frame: i + 1, turn: f.turn, player: d.player, kind: verdictKind(d, f), cause: d.cause,
                      reason: d.reason || "", message: final && final.message ? final.message : "" });
    });
  });

  function verdictOf(p, k) {
    return verdicts.find((v) => v.player === p && v.frame <= k) || null;
  }

  // -- renderer --------------------------------------------------------------------------------

  const generic = {
    init(root) {
      root.innerHTML = '<div class="generic"><pre data-testid="snapshot"></pre></div>';
      this.pre = root.querySelector("pre");
    },
    render(ctx) {
      this.pre.textContent = JSON.stringify(ctx.snapshot, null, 1);
    },
    frameLabel(s) {
      return "turn " + s.turn;
    },
    charts: [],
  };
  const renderers = window.cgRenderers || {};
  const renderer = renderers[data.game] || generic;

  // -- the game's clock: days (Spring), turns (Fall), else frames ------------------------------

  const unit = renderer.timeUnit || { name: "frame", of: (s, f, k) => k };
  const unitOf = []; // the unit of each frame, never going back
  for (let k = 0; k < count; k++) {
    let u = Number(unit.of(snapshotAt(k), frameAt(k), k));
    if (!Number.isFinite(u)) u = k > 0 ? unitOf[k - 1] : 0;
    unitOf.push(k > 0 ? Math.max(u, unitOf[k - 1]) : u);
  }
  const unitFirst = []; // the first frame of the unit of each frame
  for (let k = 0; k < count; k++) unitFirst.push(k > 0 && unitOf[k] === unitOf[k - 1] ? unitFirst[k - 1] : k);
  const unitFrames = {}; // frames in each unit
  unitOf.forEach((u) => { unitFrames[u] = (unitFrames[u] || 0) + 1; });
  // Where each frame stands on the charts' axis, 0 to 1: its unit plus its place among the
  // unit's frames, so that every day (turn) is as wide as the others.
  const along = unitOf.map((u, k) => u + (k - unitFirst[k]) / unitFrames[u]);
  const alongSpan = along[count - 1] - along[0];
  const axisAt = along.map((a) => (alongSpan > 0 ? (a - along[0]) / alongSpan : 0));
  const unitSteps = unitOf.some((u, k) => k > 0 && u === unitOf[k - 1]); // a unit of several frames

  function firstFrameOf(u) {
    const k = unitOf.indexOf(u);
    return k < 0 ? null : k;
  }

  /* The frame where the next (delta 1) or previous (-1) unit starts; going back from inside a
   * unit first goes to its start. */
  function unitTarget(k, delta) {
    if (delta > 0) {
      for (let j = k + 1; j < count; j++) if (unitOf[j] !== unitOf[k]) return j;
      return k;
    }
    if (unitFirst[k] < k) return unitFirst[k];
    return k > 0 ? unitFirst[k - 1] : 0;
  }
  const charts = [{ key: "score", title: "score", value: (s, p) => (s.scores ? s.scores[p] : 0) }]
    .concat((renderer.charts || []).filter((c) => c.key !== "score"));
  const rendererScore = (renderer.charts || []).find((c) => c.key === "score");
  if (rendererScore) charts[0] = rendererScore;

  // -- static parts ----------------------------------------------------------------------------

  const app = $("app");
  const slider = $("slider");
  const playButton = $("play");
  const speed = $("speed");

  function titleHtml() {
    const bots = data.bots.map((b, p) => who(p)).join(" vs ");
    const league = app.dataset.league ? ", " + esc(app.dataset.league) : "";
    return esc(data.game) + ": " + bots + ' <span class="why">seed ' + esc(data.seed) + league + "</span>";
  }

  function resultHtml() {
    const r = data.result || {};
    if (!r.scores) return '<span class="bad">interrupted: no result</span>';
    let text;
    if (r.winner !== null && r.winner !== undefined) text = who(r.winner) + " wins";
    else text = "draw";
    text += " (" + r.scores.map((v, p) => who(p) + " <b>" + esc(v) + "</b>").join(", ") + ")";
    text += ' <span class="why">(' + esc(String(r.end_reason).replace(/_/g, " ")) + ", " + esc(r.turns) + " turns)</span>";
    (r.players || []).forEach((p, i) => {
      if (p.status && p.status !== "ok") {
        text += ' <span class="bad" data-testid="final-verdict" data-player="' + i + '" data-kind="' + esc(p.status) + '">'
          + esc(name(i)) + ": " + esc(p.status) + (p.message ? " (" + esc(p.message) + ")" : "") + "</span>";
      }
    });
    return text;
  }

  $("title").innerHTML = titleHtml();
  const result = $("result");
  result.innerHTML = resultHtml();
  result.dataset.winner = data.result && data.result.winner !== null && data.result.winner !== undefined
    ? String(data.result.winner) : "";
  result.dataset.scores = data.result && data.result.scores ? data.result.scores.join(",") : "";
  slider.max = String(count - 1);

  // Timeline marks: verdicts (red) and refused actions (amber).
  const marks = $("timeline");
  function markAt(k, cls, title, attrs) {
    const m = document.createElement("div");
    m.className = "mark " + cls;
    m.style.left = (count > 1 ? (100 * k) / (count - 1) : 0) + "%";
    m.title = title;
    Object.keys(attrs).forEach((a) => { m.setAttribute(a, attrs[a]); });
    m.addEventListener("click", () => { goto(k); });
    marks.appendChild(m);
  }
  frames.forEach((f, i) => {
    (f.errors || []).forEach((e) => {
      markAt(i + 1, "refused", shown("frame " + (i + 1) + ": " + name(e.player) + ": " + e.message),
        { "data-testid": "timeline-refused", "data-frame": String(i + 1), "data-player": String(e.player) });
    });
  });
  verdicts.forEach((v) => {
    markAt(v.frame, "verdict", shown("frame " + v.frame + ": " + name(v.player) + " " + v.kind + " (" + v.reason + ")"),
      { "data-testid": "timeline-verdict", "data-frame": String(v.frame), "data-player": String(v.player),
        "data-kind": v.kind });
  });

  // Scoreboard.
  const scoreboard = $("scoreboard");
  const scoreCells = [];
  for (let p = 0; p < players; p++) {
    const d = document.createElement("div");
    d.className = "who";
    d.setAttribute("data-testid", "player-score");
    d.dataset.player = String(p);
    d.innerHTML = '<span><span class="name p' + p + '">' + esc(name(p)) + '</span><span class="state"></span></span>'
      + '<span class="score" data-testid="score" data-player="' + p + '"></span>';
    scoreboard.appendChild(d);
    scoreCells.push({ box: d, score: d.querySelector(".score"), state: d.querySelector(".state") });
  }

  // Per-bot inputs and outputs.
  const io = $("io");
  const ioCells = [];
  for (let p = 0; p < players; p++) {
    const d = document.createElement("div");
    d.className = "bot-io";
    d.setAttribute("data-testid", "bot-io");
    d.dataset.player = String(p);
    d.innerHTML = '<h3 class="p' + p + '">' + esc(name(p)) + ' <small>(player ' + p + ")</small></h3>"
      + '<div class="status" data-testid="exec-status"></div>'
      + '<div class="timebar"><div data-testid="timebar"></div></div>'
      + '<div class="block"><span>output</span><pre class="out" data-testid="output"></pre></div>'
      + '<div class="block"><span>stderr</span><pre class="err" data-testid="stderr"></pre></div>'
      + '<div class="block"><span data-testid="input-title">input</span><pre data-testid="input"></pre></div>';
    io.appendChild(d);
    ioCells.push({
      box: d,
      status: d.querySelector('[data-testid="exec-status"]'),
      bar: d.querySelector('[data-testid="timebar"]'),
      output: d.querySelector('[data-testid="output"]'),
      stderr: d.querySelector('[data-testid="stderr"]'),
      inputTitle: d.querySelector('[data-testid="input-title"]'),
      input: d.querySelector('[data-testid="input"]'),
    });
  }

  // Charts: one SVG per series, drawn once; only the cursor and the legend move.
  const W = 360, H = 110, PAD_L = 30, PAD_R = 6, PAD_T = 6, PAD_B = 16;
  const chartsBox = $("charts");
  const chartParts = [];
  function xOf(k) {
    return PAD_L + (W - PAD_L - PAD_R) * axisAt[k];
  }
  function nearestFrame(x) {
    const at = (x - PAD_L) / (W - PAD_L - PAD_R);
    let best = 0;
    axisAt.forEach((a, k) => { if (Math.abs(a - at) < Math.abs(axisAt[best] - at)) best = k; });
    return best;
  }
  /* The x axis in the game's units: a tick where each unit starts, a label every few units and
   * at the last, which names the unit ("day 23"). */
  function axisHtml(y) {
    const first = unitOf[0], last = unitOf[count - 1];
    const span = last - first;
    const step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000].find((n) => n >= span / 5) || Math.ceil(span / 5);
    let out = "";
    for (let u = first; u <= last; u++) {
      const k = firstFrameOf(u);
      if (k === null) continue;
      const x = xOf(k).toFixed(1);
      out += '<line class="axis tick" data-testid="chart-tick" data-value="' + u + '" x1="' + x + '" x2="' + x + '" y1="'
        + y + '" y2="' + (y + 3) + '"/>';
      const labelled = u === last || (u % step === 0 && last - u >= step * 0.7);
      if (labelled) {
        out += '<text class="label" data-testid="chart-label" data-value="' + u + '" x="' + x + '" y="' + (H - 3)
          + '" text-anchor="' + (u === last && u !== first ? "end" : "middle") + '">' + (u === last ? esc(unit.name) + " " : "")
          + u + "</text>";
      }
    }
    return out;
  }
  charts.forEach((c) => {
    const values = [];
    let lo = 0, hi = 1;
    for (let k = 0; k < count; k++) {
      const s = snapshotAt(k);
      const row = [];
      for (let p = 0; p < players; p++) {
        let v = Number(c.value(s, p));
        if (!Number.isFinite(v)) v = 0;
        row.push(v);
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
      values.push(row);
    }
    const yOf = (v) => PAD_T + (H - PAD_T - PAD_B) * (1 - (v - lo) / (hi - lo));
    let svg = '<svg viewBox="0 0 ' + W + " " + H + '" data-testid="chart-svg" data-series="' + esc(c.key) + '" data-axis="'
      + esc(unit.name) + '">';
    svg += '<line class="axis" x1="' + PAD_L + '" y1="' + yOf(lo) + '" x2="' + (W - PAD_R) + '" y2="' + yOf(lo) + '"/>';
    svg += '<line class="axis" x1="' + PAD_L + '" y1="' + PAD_T + '" x2="' + PAD_L + '" y2="' + yOf(lo) + '"/>';
    svg += '<text class="label" x="' + (PAD_L - 3) + '" y="' + (PAD_T + 7) + '" text-anchor="end">' + hi + "</text>";
    svg += '<text class="label" x="' + (PAD_L - 3) + '" y="' + yOf(lo) + '" text-anchor="end">' + lo + "</text>";
    svg += axisHtml(yOf(lo));
    verdicts.forEach((v) => {
      svg += '<line class="vline" x1="' + xOf(v.frame) + '" x2="' + xOf(v.frame) + '" y1="' + PAD_T + '" y2="' + yOf(lo) + '"/>';
    });
    for (let p = 0; p < players; p++) {
      const pts = values.map((row, k) => xOf(k).toFixed(1) + "," + yOf(row[p]).toFixed(1)).join(" ");
      svg += '<polyline data-player="' + p + '" style="stroke: var(--p' + p + ')" points="' + pts + '"/>';
    }
    svg += '<line class="cursor" data-testid="chart-cursor" x1="0" x2="0" y1="' + PAD_T + '" y2="' + yOf(lo) + '"/></svg>';
    const box = document.createElement("div");
    box.className = "chart";
    box.setAttribute("data-testid", "chart");
    box.dataset.series = c.key;
    box.innerHTML = '<div class="legend"><span>' + esc(c.title) + "</span></div>" + svg;
    const legend = box.querySelector(".legend");
    const legendValues = [];
    for (let p = 0; p < players; p++) {
      const span = document.createElement("span");
      span.innerHTML = who(p) + " <b></b>";
      legend.appendChild(span);
      legendValues.push(span.querySelector("b"));
    }
    const svgEl = box.querySelector("svg");
    svgEl.addEventListener("click", (ev) => {
      const r = svgEl.getBoundingClientRect();
      goto(nearestFrame(((ev.clientX - r.left) / r.width) * W));
    });
    chartsBox.appendChild(box);
    chartParts.push({ values, cursor: box.querySelector(".cursor"), legendValues });
  });

  // -- the game's own drawing ------------------------------------------------------------------

  const gameRoot = $("game");
  const view = { helpers, data, frameCount: count, snapshotAt, frameAt, verdicts };
  renderer.init(gameRoot, view);

  // -- one frame -------------------------------------------------------------------------------

  let current = -1;

  const STATUS_TEXT = {
    line: "answered",
    timeout: "no answer in time",
    eof: "closed its output (exited or crashed)",
    sent: "input sent, no answer expected this frame",
    "not started": "not started",
    "input refused": "could not take its input (exited or crashed)",
    limit: "killed: past its memory or process limit",
  };

  function renderIo(frame) {
    for (let p = 0; p < players; p++) {
      const cell = ioCells[p];
      const ex = frame ? (frame.executions || []).filter((e) => e.player === p) : [];
      const e = ex.length ? ex[ex.length - 1] : null;
      cell.box.dataset.status = e ? e.status : "idle";
      if (!e) {
        cell.status.textContent = frame ? "not executed this frame" : "before the first turn";
        cell.status.className = "status";
        cell.bar.style.width = "0";
        cell.bar.className = "";
        cell.bar.dataset.timeMs = "";
        cell.output.textContent = "";
        cell.stderr.textContent = "";
        cell.input.textContent = "";
        cell.inputTitle.textContent = "input";
        continue;
      }
      let text = STATUS_TEXT[e.status] || e.status;
      const limit = e.time_limit_ms;
      if (e.time_ms !== null && e.time_ms !== undefined && e.expected_lines > 0) {
        text += ": " + e.time_ms.toFixed(e.time_ms < 10 ? 2 : 1) + " ms of " + limit + " ms";
        const ratio = limit > 0 ? e.time_ms / limit : 0;
        cell.bar.style.width = Math.min(100, 100 * ratio).toFixed(1) + "%";
        cell.bar.className = ratio > 1 ? "over" : ratio > 0.8 ? "near" : "";
      } else {
        if (e.expected_lines > 0) text += " (limit " + limit + " ms)";
        cell.bar.style.width = "0";
        cell.bar.className = "";
      }
      cell.bar.dataset.timeMs = e.time_ms === null || e.time_ms === undefined ? "" : String(e.time_ms);
      cell.bar.dataset.limitMs = String(limit);
      cell.status.textContent = text;
      cell.status.className = "status" + (e.status === "line" || e.status === "sent" ? "" : " bad");
      cell.output.textContent = e.output === null || e.output === undefined ? "" : shown(e.output, true);
      cell.stderr.textContent = shown(e.stderr || "", true);
      cell.input.textContent = shown((e.input || []).join("\n"), true);
      cell.inputTitle.textContent = "input (" + (e.input || []).length + " lines)";
    }
  }

  function renderSide(k, frame, snapshot) {
    let info = "frame " + k + " of " + (count - 1);
    if (frame) info += " · turn " + frame.turn + (frame.phase ? " · " + frame.phase : "");
    else info += " · before the first turn";
    $("frame-info").textContent = info;
    const actions = [];
    if (frame) {
      (frame.executions || []).forEach((e) => {
        if (e.expected_lines > 0) {
          const out = e.output === null || e.output === undefined ? "(no answer: " + (STATUS_TEXT[e.status] || e.status) + ")" : e.output;
          actions.push('<li data-testid="action" data-player="' + e.player + '">' + who(e.player) + ": " + esc(out, true) + "</li>");
        }
      });
    }
    $("actions").innerHTML = actions.join("");
    const msgs = [];
    if (frame) {
      formatLines(frame.summary || []).forEach((html) => { msgs.push('<li data-testid="summary">' + html + "</li>"); });
      (frame.errors || []).forEach((e) => {
        msgs.push('<li class="error" data-testid="refused" data-player="' + e.player + '">refused: ' + who(e.player) + ": "
          + esc(e.message) + "</li>");
      });
      (frame.messages || []).forEach((m) => {
        msgs.push('<li class="bot-message" data-testid="bot-message" data-player="' + m.player + '">' + who(m.player)
          + " says: " + esc(m.message) + "</li>");
      });
    }
    $("messages").innerHTML = msgs.join("");
  }

  function renderVerdicts(k, snapshot) {
    const here = verdicts.filter((v) => v.frame === k);
    const banner = $("verdict-banner");
    if (here.length) {
      banner.hidden = false;
      banner.innerHTML = here.map((v) => '<div data-testid="verdict" data-player="' + v.player + '" data-kind="'
        + esc(v.kind) + '" data-frame="' + v.frame + '">' + esc(v.kind.toUpperCase()) + ": " + who(v.player)
        + " is out at turn " + esc(v.turn) + ": " + esc(v.message || v.reason)
        + (v.message && v.reason && v.message !== v.reason ? " (referee: " + esc(v.reason) + ")" : "") + "</div>").join("");
    } else {
      banner.hidden = true;
      banner.innerHTML = "";
    }
    for (let p = 0; p < players; p++) {
      const v = verdictOf(p, k);
      const cell = scoreCells[p];
      const score = snapshot.scores ? snapshot.scores[p] : "";
      cell.score.textContent = String(score);
      cell.score.dataset.score = String(score);
      cell.box.dataset.status = v ? v.kind : "active";
      cell.box.classList.toggle("out", !!v);
      cell.state.textContent = v ? v.kind + " (frame " + v.frame + ")" : "";
    }
  }

  function show(k) {
    k = Math.max(0, Math.min(count - 1, Math.floor(Number(k)) || 0));
    current = k;
    const snapshot = snapshotAt(k);
    const frame = frameAt(k);
    if (String(slider.value) !== String(k)) slider.value = String(k);
    let label = "";
    try {
      label = renderer.frameLabel ? renderer.frameLabel(snapshot, frame) : "";
      renderer.render({ k, snapshot, frame, previous: snapshotAt(k - 1), view });
      delete app.dataset.renderError;
    } catch (err) {
      app.dataset.renderError = String(err && err.message ? err.message : err);
      try {
        renderer.init(gameRoot, view); // a clean drawing for the next frame
      } catch (ignored) {
        gameRoot.innerHTML = "";
      }
      gameRoot.insertAdjacentHTML("afterbegin", '<div class="render-error" data-testid="render-error">cannot draw this frame: '
        + esc(app.dataset.renderError) + "</div>");
    }
    $("position").textContent = "frame " + k + " / " + (count - 1) + (label ? " · " + label : "");
    renderSide(k, frame, snapshot);
    renderVerdicts(k, snapshot);
    renderIo(frame);
    chartParts.forEach((c) => {
      const x = xOf(k).toFixed(1);
      c.cursor.setAttribute("x1", x);
      c.cursor.setAttribute("x2", x);
      c.legendValues.forEach((b, p) => { b.textContent = String(c.values[k][p]); });
    });
    app.dataset.frame = String(k);
    app.dataset.unit = String(unitOf[k]);
    followInUrl(k);
    return k;
  }

  // -- the frame in the URL: #frame=K --------------------------------------------------------

  function frameInUrl() {
    const m = /^#frame=(\d+)$/.exec(window.location.hash);
    return m ? Math.min(count - 1, Number(m[1])) : null;
  }

  function followInUrl(k) {
    const want = "#frame=" + k;
    if (window.location.hash === want) return;
    try {
      window.history.replaceState(window.history.state, "", want); // no history entry per step
    } catch (err) {
      try {
        window.location.replace(want);
      } catch (ignored) {
        // a page that cannot change its address still works
      }
    }
  }

  window.addEventListener("hashchange", () => {
    const k = frameInUrl();
    if (k !== null && k !== current) goto(k);
  });

  // -- playback --------------------------------------------------------------------------------

  let timer = null;
  const PLAY_ICON = playButton.innerHTML;
  const PAUSE_ICON = '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M3 2h4v12H3zM9 2h4v12H9z"/></svg>';

  function playing() {
    return timer !== null;
  }

  function delay() {
    return BASE_DELAY_MS / (Number(speed.value) || 1);
  }

  function tick() {
    if (current >= count - 1) {
      pause();
      return;
    }
    show(current + 1);
    timer = window.setTimeout(tick, delay());
  }

  function play() {
    if (playing()) return;
    if (current >= count - 1) show(0);
    playButton.dataset.playing = "true";
    playButton.innerHTML = PAUSE_ICON;
    app.dataset.playing = "true";
    timer = window.setTimeout(tick, delay());
  }

  function pause() {
    if (timer !== null) window.clearTimeout(timer);
    timer = null;
    playButton.dataset.playing = "false";
    playButton.innerHTML = PLAY_ICON;
    app.dataset.playing = "false";
  }

  function toggle() {
    if (playing()) pause();
    else play();
  }

  function goto(k) {
    pause();
    return show(k);
  }

  function step(delta) {
    return goto(current + delta);
  }

  function stepUnit(delta) {
    return goto(unitTarget(current, delta));
  }

  function button(testid, action) {
    const b = $(testid);
    b.addEventListener("click", () => {
      action();
      b.blur();
    });
  }
  button("first", () => goto(0));
  button("back", () => step(-1));
  button("play", toggle);
  button("forward", () => step(1));
  button("last", () => goto(count - 1));
  const prevUnit = $("prev-unit"), nextUnit = $("next-unit");
  if (unitSteps) {
    prevUnit.hidden = false;
    nextUnit.hidden = false;
    prevUnit.querySelector("span").textContent = unit.name;
    nextUnit.querySelector("span").textContent = unit.name;
    prevUnit.title = "Previous " + unit.name + ": its first frame (Shift+Left arrow)";
    nextUnit.title = "Next " + unit.name + ": its first frame (Shift+Right arrow)";
    button("prev-unit", () => stepUnit(-1));
    button("next-unit", () => stepUnit(1));
  }
  speed.addEventListener("change", () => {
    if (playing()) {
      window.clearTimeout(timer);
      timer = window.setTimeout(tick, delay());
    }
  });
  slider.addEventListener("input", () => { goto(Number(slider.value)); });

  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    const tag = t && t.tagName ? t.tagName : "";
    const onSlider = t === slider;
    const onSelect = tag === "SELECT";
    if ((tag === "INPUT" && !onSlider) || tag === "TEXTAREA") return;
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      if (onSlider || onSelect) return; // the slider steps by itself (its input event); a select changes value
      e.preventDefault();
      if (e.shiftKey && unitSteps) stepUnit(e.key === "ArrowRight" ? 1 : -1);
      else step(e.key === "ArrowRight" ? 1 : -1);
    } else if (e.key === " " || e.key === "Spacebar") {
      if (onSelect) return;
      e.preventDefault();
      toggle();
    } else if (e.key === "Home" || e.key === "End") {
      if (onSlider || onSelect) return;
      e.preventDefault();
      goto(e.key === "Home" ? 0 : count - 1);
    }
  });

  // -- the API for tests and scripts -----------------------------------------------------------

  window.cgView = {
    game: data.game,
    frame: () => current,
    frameCount: () => count,
    goto,
    step,
    stepUnit,
    unit: () => unit.name,
    unitOf: (k) => unitOf[k === undefined ? current : k],
    play,
    pause,
    playing,
    snapshot: (k) => snapshotAt(k === undefined ? current : k),
    verdicts: () => verdicts.map((v) => Object.assign({}, v)),
  };

  app.dataset.frameCount = String(count);
  app.dataset.game = String(data.game);
  show(frameInUrl() || 0);
  app.dataset.ready = "true";
})();
