// The dashboard's only script: pages of a tournament or ladder poll its version and, when its
// games or status change, fetch the page again and swap its content in (no reload); copy buttons.
"use strict";

(function () {
  const POLL_MS = 1000;
  const body = document.body;
  const state = document.getElementById("live-state");

  function copyButtons() {
    for (const button of document.querySelectorAll("button[data-copy]")) {
      button.addEventListener("click", () => {
        const source = document.getElementById(button.dataset.copy);
        if (source && navigator.clipboard) {
          navigator.clipboard.writeText(source.textContent).then(() => { button.textContent = "copied"; });
        }
      });
    }
  }

  async function refresh() {
    const response = await fetch(window.location.href, { cache: "no-store" });
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = page.getElementById("content");
    const content = document.getElementById("content");
    if (fresh && content) {
      content.replaceChildren(...Array.from(fresh.childNodes).map((n) => document.importNode(n, true)));
      copyButtons();
    }
  }

  function poll(url) {
    let last = null;
    async function tick() {
      try {
        const response = await fetch(url, { cache: "no-store" });
        if (response.ok) {
          const v = await response.json();
          const key = v.games + "/" + v.status;
          if (last !== null && key !== last) await refresh();
          last = key;
          if (state) state.textContent = v.status === "running" ? "live" : "";
        }
      } catch (err) {
        if (state) state.textContent = "offline";
      }
      window.setTimeout(tick, POLL_MS);
    }
    tick();
  }

  copyButtons();
  if (body.dataset.live) poll(body.dataset.live);
})();
