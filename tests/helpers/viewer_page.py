"""The viewer's page in a real browser, for the viewer's tests: open a replay's page, read what
it draws, and check it against the replay's snapshot at a frame."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Any

from arena.view import write_view


def open_page(driver: Any, replay: Path | dict[str, Any], folder: Path, name: str) -> Path:
    page = write_view(replay, folder / f"{name}.html")
    driver.get(page.resolve().as_uri())
    deadline = time.monotonic() + 10
    while driver.execute_script("return document.getElementById('app').dataset.ready") != "true":
        assert time.monotonic() < deadline, "the viewer did not start"
        time.sleep(0.05)
    assert driver.execute_script("return document.getElementById('app').dataset.renderError") is None
    return page


def snapshot(document: dict[str, Any], k: int) -> dict[str, Any]:
    """The snapshot shown at viewer frame ``k``: frame 0 is the initial position, frame k the
    position after the replay's k-th frame."""
    return document["initial"] if k == 0 else document["frames"][k - 1]["snapshot"]


def frame(driver: Any) -> int:
    k, shown = driver.execute_script("return [cgView.frame(), document.getElementById('app').dataset.frame]")
    assert shown == str(k)
    return int(k)


def press(driver: Any, *keys: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    chain = ActionChains(driver)
    for key in keys:
        chain.send_keys(key)
    chain.perform()


def drawn_spring(driver: Any) -> dict[str, Any]:
    return driver.execute_script(
        """
        const all = (sel) => [...document.querySelectorAll(sel)];
        return {
          trees: all('[data-testid="tree"]').map((e) => [+e.dataset.cell, +e.dataset.size, +e.dataset.owner,
                                                         e.dataset.dormant === "true"]),
          shadows: all('[data-testid="shadow"]').map((e) => [+e.dataset.cell, +e.dataset.size]),
          richness: all('[data-testid="cell"]').map((e) => [+e.dataset.cell, +e.dataset.richness]),
          sun: +document.querySelector('[data-testid="sun"]').dataset.direction,
          day: +document.querySelector('[data-testid="day"]').dataset.day,
          nutrients: +document.querySelector('[data-testid="nutrients"]').dataset.nutrients,
          players: all('[data-testid="spring-player"]').map((e) => [+e.dataset.sun, +e.dataset.score,
                                                                   e.dataset.waiting === "true"]),
          scores: all('[data-testid="score"]').map((e) => +e.dataset.score),
        };
        """
    )


def check_spring(driver: Any, document: dict[str, Any], k: int) -> None:
    assert frame(driver) == k
    s = snapshot(document, k)
    drawn = drawn_spring(driver)
    expected_trees = sorted([t["cell"], t["size"], t["owner"], t["dormant"]] for t in s["trees"])
    assert sorted(drawn["trees"]) == expected_trees, f"frame {k}"
    # the same, counted per size and owner, as the acceptance words it
    assert Counter((t[1], t[2]) for t in drawn["trees"]) == Counter((t["size"], t["owner"]) for t in s["trees"])
    assert sorted(drawn["shadows"]) == [[c, v] for c, v in enumerate(s["shadows"]) if v > 0]
    assert sorted(drawn["richness"]) == [[c, r] for c, r in enumerate(s["richness"])]
    assert drawn["sun"] == s["sun_direction"]
    assert drawn["day"] == s["day"] and drawn["nutrients"] == s["nutrients"]
    assert drawn["players"] == [[p["sun"], p["score"], p["waiting"]] for p in s["players"]]
    assert drawn["scores"] == s["scores"]


def drawn_fall(driver: Any) -> dict[str, Any]:
    return driver.execute_script(
        """
        const all = (sel, root) => [...(root || document).querySelectorAll(sel)];
        return {
          players: all('[data-testid="fall-player"]').map((e) => ({
            score: +e.dataset.score, deliveries: +e.dataset.deliveries,
            inventory: e.dataset.inventory.split(",").map(Number),
            tiers: all('[data-testid="ingredient"]', e).map((i) => +i.dataset.count),
            spells: all('[data-testid="spell"]', e).map((s) => [+s.dataset.id, s.dataset.castable === "true",
                                                                s.dataset.repeatable === "true"]),
          })),
          tome: all('[data-testid="tome-spell"]').map((e) => [+e.dataset.id, +e.dataset.tax, +e.dataset.stock]),
          orders: all('[data-testid="order"]').map((e) => [+e.dataset.id, +e.dataset.price, +e.dataset.bonus]),
          scores: all('[data-testid="score"]').map((e) => +e.dataset.score),
        };
        """
    )


def check_fall(driver: Any, document: dict[str, Any], k: int) -> None:
    assert frame(driver) == k
    s = snapshot(document, k)
    drawn = drawn_fall(driver)
    for p, (shown, player) in enumerate(zip(drawn["players"], s["players"], strict=True)):
        assert shown["inventory"] == player["inventory"] == shown["tiers"], f"frame {k} player {p}"
        assert shown["score"] == player["score"] and shown["deliveries"] == player["deliveries"]
        assert shown["spells"] == [[x["id"], x["castable"], x["repeatable"]] for x in player["spells"]]
    assert drawn["tome"] == [[t["id"], t["tax"], t["stock"]] for t in s["tome"]]
    assert drawn["orders"] == [[o["id"], o["price"], o["bonus"]] for o in s["deliveries"]]
    assert drawn["scores"] == s["scores"]
