/* tabletrack live pages: one WebSocket, the state kept here, each page draws its part.
   Messages (tabletrack/live/app.py): state, events, call, calls, balls, stats, status, actions. */
"use strict";
const Live = (() => {
  let S = null, mode = "scoreboard", trails = {}, lastResting = true, balls = {}, status = null, pageLatencyMs = null;
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s == null ? "" : s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  const COLORS = { white: "#f5f5f0", yellow: "#f2c500", red: "#d0202a", cue: "#f5f5f0", "1": "#f2c500", "2": "#1f4fd0",
    "3": "#d0202a", "4": "#6b2ca8", "5": "#f07a12", "6": "#168a3c", "7": "#7a1f1f", "8": "#111", "9": "#f2c500",
    "10": "#1f4fd0", "11": "#d0202a", "12": "#6b2ca8", "13": "#f07a12", "14": "#168a3c", "15": "#7a1f1f",
    green: "#168a3c", brown: "#7a4a1f", blue: "#1f4fd0", pink: "#f08cb4", black: "#111" };
  const colour = (b) => COLORS[b] || (b.startsWith("red") ? "#d0202a" : "#ccc");

  function callText(c) {
    if (!c) return "";
    const text = c.text || c.summary || (c.foul ? "FOUL (" + c.foul.replace(/_/g, " ") + ")" : c.points > 0 ? "POINT" : "MISS");
    return c.provisional ? text + " …" : text;  // shown as the balls stop; the settled call follows
  }
  function article(reason) { const m = /(00[0-4])[^.;]*?(ART\.?|art\.?|article)\s*(\d+(?:\.\d+)*(?:\([a-z]\))?)/.exec(reason || ""); return m ? m[1] + " " + m[2] + " " + m[3] : ""; }

  function players() {
    const sheet = (S && S.sheet) || {};
    const last = S && S.last_call;
    const names = (S && S.players && S.players.length) ? S.players : Object.keys((last && last.score) || {});
    return names.map((n, i) => {
      const p = { name: n, score: last && last.score ? (last.score[n] || 0) : 0, lines: [] };
      if (Array.isArray(sheet.players)) {                         // carom: points, innings, average, high run
        const q = sheet.players.find((x) => x && x.name === n);
        if (q) { p.score = q.points; p.lines.push("innings " + q.innings + "  ·  avg " + Number(q.average).toFixed(3) + "  ·  HR " + q.high_run); if (q.ball) p.lines.push("ball: " + q.ball); }
      }
      if (sheet.racks_won) { p.score = sheet.racks_won[n] || 0; p.lines.push("racks won" + (sheet.race_to ? " (race to " + sheet.race_to + ")" : "")); }
      if (sheet.frames_won) { p.score = sheet.frames_won[n] || 0; p.lines.push("frames won"); }
      p.atTable = sheet.at_table === n;
      return p;
    });
  }
  function gameLine() {
    const sheet = (S && S.sheet) || {}; const bits = [S ? S.game : ""];
    if (sheet.rack) bits.push("rack " + sheet.rack);
    const r = sheet.current_rack || sheet.rack_state || {};
    if (Array.isArray(r.balls) && r.balls.length) bits.push("ball on: " + r.balls[0]);
    if (sheet.series) bits.push("run " + sheet.series);
    if (sheet.at_table) bits.push("at table: " + sheet.at_table);
    return bits.filter(Boolean).join("  ·  ");
  }

  function drawPlayers() {
    const el = $("players"); if (!el) return;
    el.innerHTML = players().map((p) => '<div class="player' + (p.atTable ? " at-table" : "") + '"><div class="name">' + esc(p.name) +
      '</div><div class="score">' + esc(p.score) + "</div>" + p.lines.map((l) => '<div class="line">' + esc(l) + "</div>").join("") + "</div>").join("");
  }
  function drawCall() {
    const c = S && S.last_call; if (!$("call-text")) return;
    $("title").textContent = gameLine() || "tabletrack";
    if (!c) return;
    const t = $("call-text"); t.textContent = "Shot " + c.shot + " · " + c.player + ": " + callText(c);
    t.className = "text" + (c.foul ? " foul" : c.points > 0 ? " point" : "");
    $("call-reason").textContent = c.reason || "";
    $("call-review").textContent = c.needs_review ? "needs review: " + (c.review_reason || "") : "";
  }
  function drawHistory() {
    const el = $("history"); if (!el || !S) return;
    el.innerHTML = S.calls.slice().reverse().slice(0, 12).map((c) => "<tr><td>" + c.shot + "</td><td>" + esc(c.player) + "</td><td>" +
      esc(callText(c)) + (c.needs_review ? " ⚠" : "") + "</td><td>" + esc(Object.values(c.score || {}).join(" : ")) + "</td><td>" +
      (c.latency_ms != null ? Math.round(c.latency_ms) + " ms" : "") + "</td></tr>").join("");
  }
  function drawStats() {
    const el = $("stats"); if (!el || !S || !S.stats) return;
    const s = S.stats;
    el.textContent = "source " + s.source + " · frames " + s.frames_read + " read, " + s.frames_dropped + " dropped, " + s.frames_analysed +
      " analysed · analysis " + s.analysis_fps + " fps of " + s.source_fps + " · latency rest→call " +
      (s.latency_last_ms != null ? Math.round(s.latency_last_ms) + " ms (median " + Math.round(s.latency_median_ms) + ")" : "–") +
      (pageLatencyMs != null ? " · on this page " + Math.round(pageLatencyMs) + " ms" : "") + " · " + s.rss_mb + " MB";
    const b = $("banner"); if (!b) return;
    let text = "", bad = false;
    if (s.camera_moved) { text = "The camera moved: calls are held for review until it is re-calibrated."; }
    if (!s.source_alive && s.source_ended) { text = (text ? text + " " : "") + "Source ended: " + s.source_ended + ". The match is kept."; bad = true; }
    if (!text && status) text = status;
    b.textContent = text; b.className = "banner" + (text ? " on" : "") + (bad ? " bad" : "");
  }
  function drawTable() {
    const svg = $("table"); if (!svg || !S) return;
    const T = S.table, m = 90, W = T.length_mm + 2 * m, H = T.width_mm + 2 * m, r = T.ball_diameter_mm / 2;
    svg.setAttribute("viewBox", -m + " " + -m + " " + W + " " + H);
    let g = '<rect x="' + -m + '" y="' + -m + '" width="' + W + '" height="' + H + '" rx="40" fill="#4a2f1e"/>' +
      '<rect x="0" y="0" width="' + T.length_mm + '" height="' + T.width_mm + '" fill="#1f6f4a"/>';
    for (const p of T.pockets || []) g += '<circle cx="' + p.centre_mm[0] + '" cy="' + (T.width_mm - p.centre_mm[1]) + '" r="' + r * 1.9 + '" fill="#000"/>';
    for (const [b, pts] of Object.entries(trails)) if (pts.length > 1)
      g += '<polyline fill="none" stroke="' + colour(b) + '" stroke-opacity=".7" stroke-width="' + r / 3 + '" points="' + pts.map((p) => p[0] + "," + (T.width_mm - p[1])).join(" ") + '"/>';
    for (const [b, p] of Object.entries(balls)) g += '<circle cx="' + p[0] + '" cy="' + (T.width_mm - p[1]) + '" r="' + r + '" fill="' + colour(b) + '" stroke="#000" stroke-width="3"><title>' + esc(b) + "</title></circle>";
    svg.innerHTML = g;
  }
  function drawOverlay() {
    const el = $("strip"); if (!el || !S) return;
    const c = S.last_call;
    el.innerHTML = players().map((p) => '<div class="cell' + (p.atTable ? " at-table" : "") + '">' + esc(p.name) + ' <span class="pts">' + esc(p.score) + "</span></div>").join("") +
      (c ? '<div class="cell last">' + esc("Shot " + c.shot + ": " + callText(c)) + (article(c.reason) ? " · " + esc(article(c.reason)) : "") + "</div>" : "");
  }
  function drawReferee() {
    if (!$("next-shot") || !S) return;
    $("next-shot").textContent = S.next_shot; $("last-shot").textContent = S.next_shot > 1 ? S.next_shot - 1 : "–";
    $("actions").innerHTML = (S.actions || []).slice().reverse().map((a) => "<tr><td>" + a.id + "</td><td>" + a.shot + "</td><td>" +
      (a.undone ? "<s>" : "") + esc(JSON.stringify(a.fields)) + (a.undone ? "</s>" : "") + "</td></tr>").join("");
  }
  function draw() { drawPlayers(); drawCall(); drawHistory(); drawStats(); drawTable(); drawOverlay(); drawReferee(); }

  function onMessage(msg) {
    if (msg.type === "state") { S = msg.state; balls = S.balls || {}; }
    else if (!S) return;
    else if (msg.type === "call") {
      S.calls = S.calls.filter((c) => c.shot !== msg.call.shot).concat([msg.call]); S.last_call = msg.call; S.sheet = msg.sheet;
      S.next_shot = Math.max(S.next_shot, msg.call.shot + 1);
      if (msg.rest_wall_s) pageLatencyMs = Date.now() - msg.rest_wall_s * 1000;
      document.body.dataset.lastShot = msg.call.shot;
    } else if (msg.type === "calls") { S.calls = msg.calls; S.last_call = msg.calls[msg.calls.length - 1] || null; S.sheet = msg.sheet; }
    else if (msg.type === "events") { for (const e of msg.events) if (e.kind === "shot_end") S.next_shot = Math.max(S.next_shot, e.shot + 1); }
    else if (msg.type === "balls") {
      if (lastResting && !msg.resting) trails = {};
      balls = msg.balls;
      if (!msg.resting) for (const [b, p] of Object.entries(msg.balls)) (trails[b] = trails[b] || []).push(p);
      lastResting = msg.resting;
    } else if (msg.type === "stats") { S.stats = msg.stats; }
    else if (msg.type === "status") { status = msg.message; }
    else if (msg.type === "actions") { S.actions = msg.actions; }
    draw();
  }
  function connect() {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
    ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
    ws.onclose = () => { status = "connection to the server lost; retrying"; drawStats(); setTimeout(connect, 1000); };
    ws.onopen = () => { status = null; document.body.dataset.connected = "1"; };
  }

  async function act(path, body) {
    const msg = $("msg"); const token = sessionStorage.getItem("tabletrack-token") || "";
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer " + token }, body: body ? JSON.stringify(body) : "" });
    const j = await r.json().catch(() => ({ error: "HTTP " + r.status }));
    msg.textContent = r.ok ? "done" + (j.rejudged ? " (" + j.rejudged + " calls re-judged)" : "") : r.status + ": " + j.error;
    msg.className = "msg " + (r.ok ? "ok" : "err");
    if (r.ok && j.state) { S = j.state; draw(); }
  }
  function wireReferee() {
    const tok = $("token"); if (!tok) return;
    tok.value = sessionStorage.getItem("tabletrack-token") || "";
    $("save-token").onclick = () => { sessionStorage.setItem("tabletrack-token", tok.value.trim()); $("msg").textContent = "token set"; };
    const pockets = ["head_left", "head_right", "side_left", "side_right", "foot_left", "foot_right"];
    $("called-pocket").innerHTML = pockets.map((p) => "<option>" + p + "</option>").join("");
    const last = () => (S ? S.next_shot - 1 : null), next = () => null;
    $("btn-foul").onclick = () => act("/api/referee", { shot: last(), fields: { foul: $("foul").value.trim() } });
    $("btn-overrule").onclick = () => act("/api/referee", { shot: last(), fields: { overrule: [$("overrule").value.trim()] } });
    $("btn-point").onclick = () => act("/api/referee", { shot: last(), fields: { verdict: "point" } });
    $("btn-miss").onclick = () => act("/api/referee", { shot: last(), fields: { verdict: "miss" } });
    $("btn-call").onclick = () => act("/api/referee", { shot: next(), fields: { called: { ball: $("called-ball").value.trim(), pocket: $("called-pocket").value } } });
    $("btn-safety").onclick = () => act("/api/referee", { shot: next(), fields: { safety: true } });
    $("btn-push").onclick = () => act("/api/referee", { shot: next(), fields: { push_out: true } });
    $("btn-play").onclick = () => act("/api/referee", { shot: next(), fields: { choice: "play" } });
    $("btn-pass").onclick = () => act("/api/referee", { shot: next(), fields: { choice: "pass_back" } });
    $("btn-rerack").onclick = () => act("/api/referee", { shot: last(), fields: { stalemate: true } });
    $("btn-undo").onclick = () => act("/api/referee/undo");
    $("btn-recal").onclick = () => act("/api/recalibrate");
  }
  function start(m) { mode = m; document.body.dataset.mode = m; wireReferee(); connect(); }
  return { start };
})();
