/* cgarena replay viewer: Fall Challenge 2020 (witches' brew).
 *
 * Ingredients are tiers 0 to 3 (blue, green, orange, yellow). A spell's or an order's "delta"
 * gives, per tier, what it consumes (negative) and produces (positive); an order's "need" is what
 * it consumes. The tome's "tax" is its position (tier-0 ingredients to pay to learn it) and its
 * "stock" the tier-0 ingredients lying on it.
 */
(function () {
  "use strict";

  const MAX_TURNS = 100;

  function pips(n, tier, neg) {
    let html = "";
    for (let i = 0; i < n; i++) html += '<span class="ing t' + tier + (neg ? " neg" : "") + '"></span>';
    return html;
  }

  function deltaHtml(delta) {
    let used = "", made = "";
    delta.forEach((v, tier) => {
      if (v < 0) used += pips(-v, tier, true);
      if (v > 0) made += pips(v, tier, false);
    });
    return (used || "") + (used ? '<span class="arrow">→</span>' : "") + made;
  }

  function actionsOf(frame) {
    const acts = {};
    (frame ? frame.executions || [] : []).forEach((e) => {
      if (!e.output) return;
      const words = e.output.split("\n")[0].trim().split(/\s+/);
      acts[e.player] = { verb: (words[0] || "").toUpperCase(), id: Number(words[1]) };
    });
    return acts;
  }

  const renderer = {
    init(root, view) {
      this.h = view.helpers;
      root.innerHTML = '<div class="fall" data-testid="fall">'
        + '<div class="frame-info" data-testid="fall-info"></div>'
        + "<h3>Orders</h3><div class=\"row\" data-testid=\"orders\"></div>"
        + "<h3>Tome</h3><div class=\"row\" data-testid=\"tome\"></div>"
        + '<div class="players" data-testid="fall-players"></div></div>';
      this.info = root.querySelector('[data-testid="fall-info"]');
      this.orders = root.querySelector('[data-testid="orders"]');
      this.tome = root.querySelector('[data-testid="tome"]');
      this.players = root.querySelector('[data-testid="fall-players"]');
    },

    render(ctx) {
      const s = ctx.snapshot;
      const h = this.h;
      const acts = actionsOf(ctx.frame);
      const actedOn = (verb, id) => Object.keys(acts).some((p) => acts[p].verb === verb && acts[p].id === id);
      this.info.innerHTML = (ctx.frame ? "after turn <b>" + ctx.frame.turn + "</b>" : "before the first turn")
        + " (at most " + MAX_TURNS + ") · tome deck " + s.tome_deck_left
        + " · order deck " + s.order_deck_left;

      this.orders.innerHTML = s.deliveries.map((o) => {
        const bonus = o.bonus > 0 ? ' <span class="bonus">+' + o.bonus + " (" + o.bonus_count + " left)</span>" : "";
        return '<div class="card order" data-testid="order" data-id="' + o.id + '" data-price="' + o.price + '" data-bonus="'
          + o.bonus + '" data-need="' + o.need.join(",") + '">'
          + '<div class="id">#' + o.id + "</div><div>" + o.need.map((n, t) => pips(n, t, false)).join("") + "</div>"
          + '<div><span class="price">' + o.price + " rupees</span>" + bonus + "</div></div>";
      }).join("");

      this.tome.innerHTML = s.tome.map((t) => {
        const acted = actedOn("LEARN", t.id) ? " acted" : "";
        return '<div class="card tome' + acted + '" data-testid="tome-spell" data-id="' + t.id + '" data-tax="' + t.tax
          + '" data-stock="' + t.stock + '" data-repeatable="' + (t.repeatable ? "true" : "false") + '">'
          + '<div class="id">#' + t.id + (t.repeatable ? '<span class="rep" title="repeatable">↻</span>' : "") + "</div>"
          + "<div>" + deltaHtml(t.delta) + "</div>"
          + "<div>tax " + t.tax + (t.stock ? " · stock +" + t.stock + " " + pips(Math.min(t.stock, 10), 0, false) : "") + "</div></div>";
      }).join("");

      this.players.innerHTML = s.players.map((p, i) => {
        const act = acts[i];
        const inv = p.inventory;
        const total = inv.reduce((a, b) => a + b, 0);
        const spells = p.spells.map((sp) => {
          const acted = act && act.verb === "CAST" && act.id === sp.id ? " acted" : "";
          return '<div class="card spell' + (sp.castable ? "" : " exhausted") + acted + '" data-testid="spell" data-player="' + i
            + '" data-id="' + sp.id + '" data-castable="' + (sp.castable ? "true" : "false") + '" data-repeatable="'
            + (sp.repeatable ? "true" : "false") + '">'
            + '<div class="id">#' + sp.id + (sp.repeatable ? '<span class="rep" title="repeatable">↻</span>' : "")
            + (sp.castable ? "" : " exhausted") + "</div><div>" + deltaHtml(sp.delta) + "</div></div>";
        }).join("");
        return '<div class="fp" data-testid="fall-player" data-player="' + i + '" data-score="' + p.score
          + '" data-inventory="' + inv.join(",") + '" data-deliveries="' + p.deliveries + '">'
          + '<div class="head"><span class="name p' + i + '">' + h.esc(h.name(i)) + "</span><span>score <b>" + p.score
          + "</b> · potions <b>" + p.deliveries + "</b></span></div>"
          + '<div class="inv" title="inventory (' + total + ' of 10)">'
          + inv.map((n, t) => '<div class="t' + t + '" data-testid="ingredient" data-tier="' + t + '" data-count="' + n + '">'
            + n + "</div>").join("") + "</div>"
          + '<div class="frame-info">inventory ' + total + " / 10" + (act ? " · action: " + h.esc(act.verb)
            + (Number.isFinite(act.id) ? " " + act.id : "") : "") + "</div>"
          + '<div class="row">' + spells + "</div></div>";
      }).join("");
    },

    frameLabel(s, frame) {
      return frame ? "turn " + frame.turn : "start";
    },

    charts: [
      { key: "score", title: "score", value: (s, p) => s.players[p].score },
      { key: "potions", title: "potions brewed", value: (s, p) => s.players[p].deliveries },
    ],

    // the charts count turns: frame k is turn k, frame 0 the start
    timeUnit: { name: "turn", of: (s, frame) => (frame ? frame.turn : 0) },
  };

  window.cgRenderers = window.cgRenderers || {};
  window.cgRenderers.fall2020 = renderer;
})();
