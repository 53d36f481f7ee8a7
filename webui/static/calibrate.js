// Calibration wizard (issue 6): upload a photo, learn the palette, check coverage, save.
// Values are written with textContent / createElement only, never innerHTML.
(function () {
  "use strict";
  const root = document.getElementById("calibrate");
  if (!root) return;
  const csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
  const $ = (id) => document.getElementById(id);
  const canvas = $("view");
  const ctx = canvas.getContext("2d");
  const MAX_SIDE = 1600; // uploads are scaled down client-side (the server caps request size)
  let photo = null;      // {img, blob, w, h}
  let clicks = null;     // corner clicks in photo pixels, or null when not clicking
  let lastRead = null;   // tiles of the last "Check reading", for "Confirm reading"

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function say(text, isError) {
    const m = $("message");
    m.textContent = text || "";
    m.classList.toggle("error", !!isError);
  }

  // GET (no body) or POST with the CSRF header; a failed request throws the server's message
  async function send(url, body, isJson) {
    const headers = { "X-CSRFToken": csrf, "Accept": "application/json" };
    const opts = { method: body === undefined ? "GET" : "POST", headers: headers,
                   credentials: "same-origin" };
    if (body !== undefined) {
      if (isJson) { headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
      else opts.body = body;
    }
    const r = await fetch(url, opts);
    if (!r.ok) {
      let msg = "HTTP " + r.status;
      try { msg = (await r.json()).message || msg; } catch (e) { /* not JSON */ }
      throw new Error(msg);
    }
    return r;
  }

  async function call(url, body, isJson) {
    const r = await send(url, body, isJson);
    try { return await r.json(); } catch (e) { return null; }
  }

  function scale() { return photo ? canvas.width / photo.w : 1; }

  function drawPhoto() {
    if (!photo) { ctx.fillStyle = "#222"; ctx.fillRect(0, 0, canvas.width, canvas.height); return; }
    canvas.height = Math.round(canvas.width * photo.h / photo.w);
    ctx.drawImage(photo.img, 0, 0, canvas.width, canvas.height);
  }

  function drawQuads(tiles, labelOf, colourOf) {
    const s = scale();
    ctx.lineWidth = 3;
    ctx.font = "bold 14px sans-serif";
    for (const t of tiles) {
      const c = t.corners;
      ctx.strokeStyle = colourOf(t);
      ctx.beginPath();
      ctx.moveTo(c[0][0] * s, c[0][1] * s);
      for (let i = 1; i < 4; i++) ctx.lineTo(c[i][0] * s, c[i][1] * s);
      ctx.closePath();
      ctx.stroke();
      const label = labelOf(t);
      const x = c[0][0] * s, y = c[0][1] * s - 4;
      ctx.fillStyle = "rgba(0,0,0,.7)";
      ctx.fillRect(x, y - 14, ctx.measureText(label).width + 6, 17);
      ctx.fillStyle = "#fff";
      ctx.fillText(label, x + 3, y);
    }
  }

  function showCoverage(palette, pending) {
    const ul = $("coverage");
    ul.replaceChildren();
    for (const p of palette) {
      const ok = pending ? pending.coverage[p.name] : p.spread !== null;
      const li = el("li", ok ? "ok" : "missing");
      const sw = el("span", "swatch");
      sw.style.backgroundColor = p.rgb;
      li.append(sw, el("span", null, p.name), el("span", "mark", ok ? "✓" : "✗"));
      ul.append(li);
    }
    $("save").disabled = !(pending && pending.complete);
  }

  async function refresh() {
    const s = await call(root.dataset.state);
    const prof = s.pending ? s.pending.profile : (s.saved || null);
    if (prof) showCoverage(prof.palette, s.pending);
    else { $("coverage").replaceChildren(); $("save").disabled = true; }
    $("profile-file").textContent = s.profile_path;
  }

  // A photo this browser cannot decode (an iPhone's HEIC outside Safari): the server turns it
  // into an upright JPEG, which is then loaded as any photo.
  async function convertPhoto(file) {
    say("Converting the photo…");
    try {
      const fd = new FormData();
      fd.append("image", file, file.name || "photo");
      const r = await send(root.dataset.photo, fd);
      loadPhoto(await r.blob(), true);
    } catch (err) { say("That file is not a photo tabletally can read (" + err.message + ").", true); }
  }

  function loadPhoto(file, converted) {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = function () {
      const k = Math.min(1, MAX_SIDE / Math.max(img.naturalWidth, img.naturalHeight));
      const w = Math.round(img.naturalWidth * k), h = Math.round(img.naturalHeight * k);
      const off = document.createElement("canvas");
      off.width = w; off.height = h;
      off.getContext("2d").drawImage(img, 0, 0, w, h);
      off.toBlob(function (blob) {
        photo = { img: img, blob: blob, w: w, h: h };
        clicks = null;
        drawPhoto();
        say("Photo ready (" + w + "×" + h + "). Press Learn colours.");
      }, "image/jpeg", 0.92);
    };
    img.onerror = function () {
      URL.revokeObjectURL(url);
      if (converted) say("That file is not an image this browser can read.", true);
      else convertPhoto(file);
    };
    img.src = url;
  }

  function form() {
    const fd = new FormData();
    fd.append("image", photo.blob, "photo.jpg");
    fd.append("palette", $("palette").value);
    fd.append("order", $("order").value);
    return fd;
  }

  function need() {
    if (!photo) { say("Choose a photo first.", true); return false; }
    return true;
  }

  $("photo").addEventListener("change", function (e) {
    if (e.target.files && e.target.files[0]) loadPhoto(e.target.files[0]);
  });

  if ($("grab")) {
    $("grab").addEventListener("click", async function () {
      try {
        const r = await send(root.dataset.frame);
        loadPhoto(await r.blob());
      } catch (err) { say(err.message, true); }
    });
  }

  $("learn").addEventListener("click", async function () {
    if (!need()) return;
    say("Learning colours…");
    try {
      const r = await call(root.dataset.colours, form());
      drawPhoto();
      drawQuads(r.tiles, (t) => (t.index + 1) + " " + t.color + (t.clean ? " ✓" : " ✗"),
                (t) => (t.clean ? (t.rgb || "#fff") : "#ff3b30"));
      showCoverage(r.profile.palette, r);
      say(r.complete ? "All colours covered: you can save." : r.problems.join("; "), !r.complete);
    } catch (err) { say(err.message, true); }
  });

  $("check").addEventListener("click", async function () {
    if (!need()) return;
    say("Reading the tiles…");
    try {
      const r = await call(root.dataset.classify, form());
      drawPhoto();
      const rgb = {};
      for (const li of $("coverage").children) {
        rgb[li.children[1].textContent] = li.children[0].style.backgroundColor;
      }
      drawQuads(r.tiles, (t) => t.color, (t) => rgb[t.color] || "#fff");
      lastRead = r.tiles.length ? r.tiles : null;
      $("confirm").disabled = !lastRead;
      say(r.tiles.length + " tiles read with the " + r.profile + " profile." +
          (lastRead ? " If every label is right, press Confirm reading." : ""));
    } catch (err) { say(err.message, true); }
  });

  $("confirm").addEventListener("click", async function () {
    if (!need() || !lastRead) return;
    const fd = form();
    fd.append("tiles", JSON.stringify(lastRead.map((t) => ({ corners: t.corners, color: t.color }))));
    try {
      const r = await call(root.dataset.confirm, fd);
      lastRead = null;
      $("confirm").disabled = true;
      showCoverage(r.profile.palette, r);
      say((r.complete ? "All colours covered: you can save." : "Still missing: " +
           r.missing.join(", ") + ".") + " (" + r.photos + " photo(s) confirmed)", !r.complete);
    } catch (err) { say(err.message, true); }
  });

  $("reset").addEventListener("click", async function () {
    try {
      await call(root.dataset.reset, new FormData());
      lastRead = null;
      $("confirm").disabled = true;
      drawPhoto();
      await refresh();
      say("Started over.");
    } catch (err) { say(err.message, true); }
  });

  $("save").addEventListener("click", async function () {
    try {
      const r = await call(root.dataset.save, new FormData());
      say("Saved to " + r.saved + ".");
      $("save").disabled = true;
    } catch (err) { say(err.message, true); }
  });

  function sizes(fd) {
    const w = $("table-w").value.trim(), h = $("table-h").value.trim(), p = $("tile-mm").value.trim();
    if (fd) {
      if (w && h) { fd.append("table_w_mm", w); fd.append("table_h_mm", h); }
      if (p) fd.append("tile_mm", p);
      return fd;
    }
    const body = {};
    if (w && h) body.table_mm = [Number(w), Number(h)];
    if (p) body.tile_mm = Number(p);
    return body;
  }

  $("markers").addEventListener("click", async function () {
    if (!need()) return;
    say("Looking for the four markers…");
    try {
      const fd = new FormData();
      fd.append("image", photo.blob, "photo.jpg");
      const r = await call(root.dataset.geometry, sizes(fd));
      say("Table geometry saved (" + r.geometry.units + ").");
    } catch (err) { say(err.message, true); }
  });

  $("corners").addEventListener("click", function () {
    if (!need()) return;
    clicks = [];
    drawPhoto();
    say("Click the table's corners: top-left, top-right, bottom-right, bottom-left.");
  });

  canvas.addEventListener("click", async function (e) {
    if (!clicks || !photo) return;
    const rect = canvas.getBoundingClientRect();
    const x = (e.clientX - rect.left) * (canvas.width / rect.width) / scale();
    const y = (e.clientY - rect.top) * (canvas.height / rect.height) / scale();
    clicks.push([x, y]);
    ctx.fillStyle = "#ffcc00";
    ctx.beginPath();
    ctx.arc(x * scale(), y * scale(), 6, 0, 2 * Math.PI);
    ctx.fill();
    if (clicks.length < 4) { say((4 - clicks.length) + " more corner(s)."); return; }
    const body = sizes(null);
    body.corners = clicks;
    body.image_size = [photo.w, photo.h];
    clicks = null;
    try {
      const r = await call(root.dataset.geometry, body, true);
      say("Table geometry saved (" + r.geometry.units + ").");
    } catch (err) { say(err.message, true); }
  });

  drawPhoto();
  refresh().catch((err) => say(err.message, true));
})();
