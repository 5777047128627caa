/* cgarena replay viewer: Spring Challenge 2021 (the hexagonal forest).
 *
 * Cells are numbered in the referee's spiral (0 = centre, then ring by ring, starting towards
 * direction 0 and turning counter-clockwise); cube coordinates (x, y, z) with x + y + z = 0. The
 * sun in direction d casts shadows towards direction d; the snapshot gives each cell's shadow
 * (the size of the tallest tree shading it, 0 for none) for the current day.
 */
(function () {
  "use strict";

  const DIRS = [[1, -1, 0], [1, 0, -1], [0, 1, -1], [-1, 1, 0], [-1, 0, 1], [0, -1, 1]];
  const SIZE = 34; // hexagon radius in SVG units
  const ROOT3 = Math.sqrt(3);
  const CROWN = [6, 11, 16, 21];
  const SIZE_NAMES = ["seed", "small", "medium", "large"];

  function ringsFor(cells) {
    let r = 0;
    while (1 + 3 * r * (r + 1) < cells) r++;
    return r;
  }

  function spiral(rings) {
    const coords = [[0, 0, 0]];
    let c = DIRS[0].slice();
    for (let ring = 1; ring <= rings; ring++) {
      for (let o = 0; o < 6; o++) {
        for (let i = 0; i < ring; i++) {
          coords.push(c.slice());
          const d = DIRS[(o + 2) % 6];
          c = [c[0] + d[0], c[1] + d[1], c[2] + d[2]];
        }
      }
      c = [c[0] + DIRS[0][0], c[1] + DIRS[0][1], c[2] + DIRS[0][2]];
    }
    return coords;
  }

  // Pointy-top hexagons: direction 0 points right, direction 1 up-right (SVG y grows downwards).
  function pixel(c) {
    return [SIZE * ROOT3 * (c[0] + c[2] / 2), SIZE * 1.5 * c[2]];
  }

  function hexPoints(x, y, r) {
    const pts = [];
    for (let i = 0; i < 6; i++) {
      const a = (Math.PI / 180) * (60 * i - 30);
      pts.push((x + r * Math.cos(a)).toFixed(1) + "," + (y + r * Math.sin(a)).toFixed(1));
    }
    return pts.join(" ");
  }

  function parseAction(text) {
    const words = String(text || "").trim().split(/\s+/);
    const verb = (words[0] || "").toUpperCase();
    const nums = words.slice(1, 3).map(Number);
    if (verb === "SEED" && nums.length === 2 && nums.every(Number.isInteger)) return { kind: "seed", from: nums[0], to: nums[1] };
    if ((verb === "GROW" || verb === "COMPLETE") && Number.isInteger(nums[0])) return { kind: verb.toLowerCase(), cell: nums[0] };
    if (verb === "WAIT") return { kind: "wait" };
    return null;
  }

  const renderer = {
    init(root, view) {
      this.view = view;
      this.h = view.helpers;
      const cells = view.data.initial.richness.length;
      this.rings = ringsFor(cells);
      this.centres = spiral(this.rings).map(pixel);
      const half = (this.rings + 0.5) * SIZE * ROOT3 + 42; // room for the sun around the board
      const halfY = Math.max(this.rings * 1.5 * SIZE + SIZE, (half - 16) * ROOT3 / 2 + 13) + 12;
      this.half = half;
      root.innerHTML = '<div class="spring">'
        + '<svg class="board" data-testid="board" viewBox="' + (-half) + " " + (-halfY) + " " + 2 * half + " " + 2 * halfY
        + '" role="img" aria-label="board"><g data-testid="cells"></g><g data-testid="shadows"></g>'
        + '<g data-testid="acts"></g><g data-testid="trees"></g><g data-testid="sun-layer"></g></svg>'
        + '<div class="info" data-testid="spring-info"></div></div>';
      this.svg = root.querySelector("svg");
      this.cellLayer = root.querySelector('[data-testid="cells"]');
      this.shadowLayer = root.querySelector('[data-testid="shadows"]');
      this.actLayer = root.querySelector('[data-testid="acts"]');
      this.treeLayer = root.querySelector('[data-testid="trees"]');
      this.sunLayer = root.querySelector('[data-testid="sun-layer"]');
      this.info = root.querySelector('[data-testid="spring-info"]');
      this.drawnRichness = null;
    },

    drawCells(richness) {
      const key = richness.join(",");
      if (key === this.drawnRichness) return;
      this.drawnRichness = key;
      let svg = "";
      richness.forEach((rich, i) => {
        const [x, y] = this.centres[i];
        svg += '<g data-testid="cell" data-cell="' + i + '" data-richness="' + rich + '">';
        svg += '<polygon class="cell rich-' + rich + '" points="' + hexPoints(x, y, SIZE - 1) + '"><title>cell ' + i
          + (rich ? ", richness " + rich : ", unusable") + "</title></polygon>";
        if (rich === 0) {
          const d = SIZE * 0.35;
          svg += '<path class="hole-x" d="M' + (x - d) + " " + (y - d) + "L" + (x + d) + " " + (y + d) + "M" + (x + d) + " "
            + (y - d) + "L" + (x - d) + " " + (y + d) + '"/>';
        } else {
          for (let j = 0; j < rich; j++) {
            svg += '<circle class="pip" r="2" cx="' + (x - (rich - 1) * 3 + j * 6) + '" cy="' + (y + SIZE * 0.68) + '"/>';
          }
        }
        svg += '<text class="idx" x="' + x + '" y="' + (y - SIZE * 0.55) + '">' + i + "</text></g>";
      });
      this.cellLayer.innerHTML = svg;
    },

    drawShadows(shadows) {
      let svg = "";
      (shadows || []).forEach((s, i) => {
        if (s > 0) {
          const [x, y] = this.centres[i];
          svg += '<polygon class="shadow shadow-' + Math.min(3, s) + '" data-testid="shadow" data-cell="' + i + '" data-size="'
            + s + '" points="' + hexPoints(x, y, SIZE - 1) + '"/>';
        }
      });
      this.shadowLayer.innerHTML = svg;
    },

    drawTrees(trees, shadows) {
      let svg = "";
      trees.forEach((t) => {
        const [x, y] = this.centres[t.cell];
        const shaded = t.size > 0 && shadows && shadows[t.cell] >= t.size;
        const cls = "tree o" + t.owner + (t.size === 0 ? " seed" : "") + (t.dormant ? " dormant" : "");
        svg += '<g class="' + cls + '" data-testid="tree" data-cell="' + t.cell + '" data-size="' + t.size + '" data-owner="'
          + t.owner + '" data-dormant="' + (t.dormant ? "true" : "false") + '" data-shaded="' + (shaded ? "true" : "false") + '">'
          + "<title>" + SIZE_NAMES[t.size] + " tree of " + this.h.esc(this.h.name(t.owner)) + " on cell " + t.cell
          + (t.dormant ? ", dormant" : "") + (shaded ? ", in the shadow" : "") + "</title>"
          + '<circle class="crown" cx="' + x + '" cy="' + y + '" r="' + CROWN[t.size] + '"/>';
        if (t.size > 0) svg += '<text x="' + x + '" y="' + y + '">' + t.size + "</text>";
        if (t.dormant) svg += '<text class="zz" x="' + (x + 15) + '" y="' + (y - 14) + '">z</text>';
        svg += "</g>";
      });
      this.treeLayer.innerHTML = svg;
    },

    drawSun(direction) {
      const d = DIRS[direction] || DIRS[0];
      const [dx, dy] = pixel(d);
      const len = Math.hypot(dx, dy);
      const ux = dx / len, uy = dy / len;
      const r = this.half - 16;
      const sx = -ux * r, sy = -uy * r; // the sun stands on the far side and shades towards d
      const ax = sx + ux * 20, ay = sy + uy * 20;
      this.sunLayer.innerHTML = '<g class="sun" data-testid="sun" data-direction="' + direction + '">'
        + "<title>sun direction " + direction + ": shadows fall this way</title>"
        + '<line x1="' + sx + '" y1="' + sy + '" x2="' + ax + '" y2="' + ay + '"/>'
        + '<path d="M' + (ax + ux * 8) + " " + (ay + uy * 8) + "L" + (ax - uy * 6) + " " + (ay + ux * 6) + "L" + (ax + uy * 6)
        + " " + (ay - ux * 6) + 'Z" fill="#e0a800"/>'
        + '<circle cx="' + sx + '" cy="' + sy + '" r="13"/>'
        + '<text x="' + sx + '" y="' + (sy + 4) + '">' + direction + "</text></g>";
    },

    drawActions(frame) {
      let svg = "";
      (frame ? frame.executions || [] : []).forEach((e) => {
        if (!e.output) return;
        const a = parseAction(e.output.split("\n")[0]);
        if (!a || a.kind === "wait") return;
        const o = " o" + e.player;
        const attrs = ' data-testid="action-mark" data-player="' + e.player + '" data-kind="' + a.kind + '"';
        if (a.kind === "seed") {
          const p = this.centres[a.from], q = this.centres[a.to];
          if (!p || !q) return;
          svg += '<line class="act seed' + o + '"' + attrs + ' data-cell="' + a.to + '" data-from="' + a.from + '" x1="' + p[0]
            + '" y1="' + p[1] + '" x2="' + q[0] + '" y2="' + q[1] + '"/>';
        } else {
          const p = this.centres[a.cell];
          if (!p) return;
          svg += '<polygon class="act ' + a.kind + o + '"' + attrs + ' data-cell="' + a.cell + '" points="'
            + hexPoints(p[0], p[1], SIZE - 4) + '"/>';
        }
      });
      this.actLayer.innerHTML = svg;
    },

    drawInfo(s) {
      const h = this.h;
      const counts = s.players.map(() => [0, 0, 0, 0]);
      s.trees.forEach((t) => { if (counts[t.owner]) counts[t.owner][t.size]++; });
      let html = '<div class="big" data-testid="day" data-day="' + s.day + '">day ' + Math.min(s.day, s.max_rounds - 1)
        + " / " + (s.max_rounds - 1) + (s.day >= s.max_rounds ? " (over)" : "") + "</div>"
        + '<div data-testid="phase" data-phase="' + h.esc(s.frame) + '">' + h.esc(String(s.frame).replace("_", " ").toLowerCase())
        + "</div>"
        + '<div data-testid="nutrients" data-nutrients="' + s.nutrients + '">nutrients <b>' + s.nutrients + "</b></div>"
        + '<div data-testid="sun-direction" data-direction="' + s.sun_direction + '">sun direction <b>' + s.sun_direction
        + "</b></div>";
      s.players.forEach((p, i) => {
        html += '<div class="sp' + (p.waiting ? " asleep" : "") + '" data-testid="spring-player" data-player="' + i
          + '" data-sun="' + p.sun + '" data-score="' + p.score + '" data-waiting="' + (p.waiting ? "true" : "false")
          + '" data-active="' + (p.active ? "true" : "false") + '" data-trees="' + counts[i].join(",") + '">'
          + '<div class="name p' + i + '">' + h.esc(h.name(i)) + "</div>"
          + "<div>sun <b>" + p.sun + "</b> · score <b>" + p.score + "</b></div>"
          + "<div>trees: " + counts[i].map((n, size) => n + " " + SIZE_NAMES[size]).join(", ") + "</div>"
          + (p.active ? "" : '<div class="render-error">out of the game</div>') + "</div>";
      });
      html += '<div class="legend">Cell colour: richness 1 to 3 (dots), dark with a cross: unusable. Grey veil: in the'
        + " shadow of a tree of size 1 to 3 (darker is taller). Circles: trees by size, seeds outlined in white;"
        + " dashed with z: dormant. Arrow: the sun's direction. Lines and outlines: this frame's actions.</div>";
      this.info.innerHTML = html;
    },

    render(ctx) {
      const s = ctx.snapshot;
      this.drawCells(s.richness);
      this.drawShadows(s.shadows);
      this.drawActions(ctx.frame);
      this.drawTrees(s.trees, s.shadows);
      this.drawSun(s.sun_direction);
      this.drawInfo(s);
      this.svg.dataset.day = String(s.day);
    },

    frameLabel(s) {
      return "day " + Math.min(s.day, s.max_rounds - 1) + " / " + (s.max_rounds - 1) + " · " + String(s.frame).toLowerCase();
    },

    charts: [
      { key: "score", title: "score", value: (s, p) => s.players[p].score },
      { key: "sun", title: "sun", value: (s, p) => s.players[p].sun },
    ],

    // the charts count days; the controls step by day (a day is several frames: gathering, actions, sun move)
    timeUnit: { name: "day", of: (s) => Math.min(s.day, s.max_rounds - 1) },
  };

  window.cgRenderers = window.cgRenderers || {};
  window.cgRenderers.spring2021 = renderer;
})();
