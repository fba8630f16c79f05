// pitwatch console: the only script. It refreshes the floor's live panel and ticks every
// case on a queue page; everything else is plain HTML forms. Served from 'self' (the
// content policy allows no inline script).
"use strict";

function refreshFloor(panel) {
  const seconds = Number(panel.dataset.seconds || "20");
  const url = panel.dataset.refresh;
  window.setInterval(async () => {
    try {
      const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
      if (response.ok && !response.redirected) {
        panel.innerHTML = await response.text(); // rendered and escaped by the server
      }
    } catch (_) {
      // keep the panel as it is; the next refresh tries again
    }
  }, seconds * 1000);
}

document.addEventListener("DOMContentLoaded", () => {
  const panel = document.getElementById("floor-live");
  if (panel) refreshFloor(panel);
  const all = document.getElementById("tick-all");
  if (all) {
    all.addEventListener("change", () => {
      for (const box of document.querySelectorAll("input.tick")) box.checked = all.checked;
    });
  }
});
