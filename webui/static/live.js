// Live page: Server-Sent Events -> fetch the JSON twin -> update the page with DOM nodes.
// Every value is written with textContent / createElement, never innerHTML, so user text such
// as player names can never become markup (issue 5, "Safety on a LAN").
(function () {
  "use strict";
  const root = document.getElementById("live");
  if (!root) return;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const actionUrl = document.querySelector('form[action$="/action"]').getAttribute("action");
  let version = Number(root.dataset.version);
  let pending = false;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function tile(t) {
    const s = el("span", "tile c-" + t.color);
    s.title = t.color + " " + t.shape;
    const g = el("span", "g", t.glyph);
    g.setAttribute("aria-hidden", "true");
    s.append(g, el("span", "l", t.letter));
    return s;
  }

  function hidden(name, value) {
    const i = el("input");
    i.type = "hidden"; i.name = name; i.value = String(value);
    return i;
  }

  function actionForm(fields, label, cls) {
    const f = el("form");
    f.method = "post"; f.action = actionUrl;
    f.append(hidden("csrf_token", csrf));
    for (const [k, v] of Object.entries(fields)) f.append(hidden(k, v));
    const b = el("button", cls || "", label);
    b.type = "submit";
    f.append(b);
    return f;
  }

  function renderScoreboard(s) {
    const ol = document.getElementById("scoreboard");
    const items = [];
    for (const p of s.players) {
      const li = el("li");
      li.dataset.index = p.index;
      if (p.next) li.classList.add("next");
      if (p.leader && s.turn_count) li.classList.add("leader");
      const meta = el("span", "meta");
      meta.append(el("span", "qw", p.qwirkles), " Qwirkle" + (p.qwirkles === 1 ? "" : "s"),
                  el("span", "turnmark", p.next ? " · to play" : ""));
      li.append(el("span", "name", p.name), el("span", "total", p.total), meta);
      items.push(li);
    }
    ol.replaceChildren(...items);
    const next = s.players[s.next_player];
    document.getElementById("next-name").textContent = next ? next.name : "";
    for (const i of document.querySelectorAll("input.next-player")) i.value = s.next_player;
  }

  function renderLast(s) {
    const p = document.getElementById("last-move");
    const t = s.last_turn;
    if (!t) { p.replaceChildren(el("span", "label", "No move yet.")); return; }
    p.replaceChildren(el("span", "who", t.name), ": ", el("span", "pts", t.points), " — ",
                      el("span", "label", t.label));
  }

  function renderReview(s) {
    const ul = document.getElementById("review");
    document.getElementById("review-count").textContent = s.review.length;
    if (!s.review.length) { ul.replaceChildren(el("li", "empty", "Nothing to review.")); return; }
    ul.replaceChildren(...s.review.map((r) => {
      const li = el("li");
      const head = el("p");
      head.append(el("b", "", "Turn " + r.number), " (" + r.name + "): " + r.reason);
      li.append(head);
      if (r.tiles.length) {
        const seen = el("p", "", "Seen: ");
        for (const t of r.tiles) seen.append(tile(t));
        li.append(seen);
      }
      const btns = el("div", "buttons");
      [r.tiles, ...r.candidates].forEach((c, i) => {
        if (!c.length) return;
        const txt = c.map((t) => t.text + "@" + t.row + "," + t.col).join(" ");
        btns.append(actionForm({ action: "accept", index: r.index, candidate: i },
                               (i === 0 ? "Accept as seen: " : "Accept reading " + i + ": ") + txt));
      });
      (r.splits || []).forEach((sp, i) => {
        const txt = (c) => c.map((t) => t.text + "@" + t.row + "," + t.col).join(" ");
        btns.append(actionForm({ action: "split", index: r.index, split: i },
                               "Accept as two moves: " + sp.names[0] + " " + txt(sp.first) +
                               ", then " + sp.names[1] + " " + txt(sp.second)));
      });
      btns.append(actionForm({ action: "dismiss", index: r.index }, "Dismiss", "quiet"));
      li.append(btns);
      return li;
    }));
  }

  function renderUnseen(s) {
    document.getElementById("unseen-total").textContent = s.unseen_total;
    document.getElementById("bag").textContent = s.bag;
    document.getElementById("unseen").replaceChildren(...s.unseen.map((t) => {
      const u = el("span", "u");
      u.append(tile(t), el("span", "n", t.count));
      return u;
    }));
  }

  function renderHealth(h) {
    const p = document.getElementById("camera-health");
    if (!p || !h) return;
    p.className = "health " + (h.state || "none");
    let text = h.message || h.state || "no camera";
    if (h.state === "ok" && typeof h.fps === "number") {
      text = (h.message ? h.message + " · " : "") + h.fps.toFixed(1) + " fps · last frame " +
             (h.frame_age_s || 0).toFixed(1) + " s ago";
    }
    if (h.detect_failures) {  // frames skipped because the detector failed on them
      text += " · " + h.detect_failures + " frame" + (h.detect_failures === 1 ? "" : "s") +
              " unreadable (skipped)";
    }
    p.textContent = text;
  }

  function render(s) {
    renderScoreboard(s);
    renderLast(s);
    renderReview(s);
    renderUnseen(s);
    renderHealth(s.camera);
    document.getElementById("status").textContent = s.status;
    const note = document.getElementById("note");
    if (note && s.note) note.textContent = s.note;
    document.getElementById("finished").hidden = !s.finished;
    const board = document.getElementById("board");
    board.src = root.dataset.board + "?v=" + s.version;
    root.dataset.version = s.version;
  }

  async function refresh() {
    if (pending) return;
    pending = true;
    try {
      const r = await fetch(root.dataset.state, { headers: { Accept: "application/json" } });
      if (r.ok) render(await r.json());
    } finally {
      pending = false;
    }
  }

  function connect() {
    const es = new EventSource(root.dataset.events);
    es.addEventListener("game", (e) => {
      const v = JSON.parse(e.data).version;
      if (v !== version) { version = v; refresh(); }
    });
    es.addEventListener("health", (e) => renderHealth(JSON.parse(e.data)));
  }

  const cam = document.getElementById("camera");
  if (cam) {
    cam.addEventListener("error", () => {  // stream ended (server max age) or dropped: retry
      setTimeout(() => { cam.src = cam.src.split("?")[0] + "?t=" + Date.now(); }, 2000);
    });
  }
  connect();
})();
