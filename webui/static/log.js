// Move log: reload when the game changes elsewhere (camera, another phone), unless the user is
// editing a turn right now (an open <details> or a focused field).
(function () {
  "use strict";
  const m = location.pathname.match(/^\/games\/(\d+)\/log/);
  if (!m) return;
  let version = null;
  const es = new EventSource("/games/" + m[1] + "/events");
  es.addEventListener("game", (e) => {
    const v = JSON.parse(e.data).version;
    if (version === null) { version = v; return; }
    if (v === version) return;
    version = v;
    const editing = document.querySelector("details.edit[open]") ||
      (document.activeElement && document.activeElement.closest("form"));
    if (!editing) location.reload();
  });
})();
