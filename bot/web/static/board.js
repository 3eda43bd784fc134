// The web board: draws the state the server sends (bot/service/webboard.py) as one SVG,
// keeps it live (server-sent events), lets a player act through the same presses as the
// Discord buttons, and steps through a finished game. No framework, no build step.
"use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const boot = JSON.parse(document.getElementById("boot").textContent);
  const words = boot.words;
  const base = boot.api_base || location.pathname.replace(/\/$/, ""); // the Activity gives its own
  let state = boot.state;
  let selected = null; // the point a checker was picked up from
  let drag = null;
  let busy = false;

  const $ = (id) => document.getElementById(id);
  const plain = (text) => (text || "").replace(/^-# /gm, "").replace(/\*\*|`|__/g, "").replace(/\\([^\w\s])/g, "$1");

  function query(extra) {
    const q = new URLSearchParams();
    if (boot.as) q.set("as", boot.as);
    q.set("lang", boot.lang);
    for (const k in extra || {}) if (extra[k] !== null && extra[k] !== undefined) q.set(k, extra[k]);
    return "?" + q.toString();
  }

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const k in attrs) node.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(node);
    return node;
  }

  // -- geometry: a board of 600 x 440 (the frame 12 more above and below, for the point
  // numbers); the viewer's home is bottom right ------------------------
  function pointX(p) {
    if (p <= 6) return 290 + (6 - p) * 40;
    if (p <= 12) return 10 + (12 - p) * 40;
    if (p <= 18) return 10 + (p - 13) * 40;
    return 290 + (p - 19) * 40;
  }
  const bottom = (p) => p <= 12;
  function checkerY(p, i) {
    return bottom(p) ? 430 - 18 - i * 34 : 10 + 18 + i * 34;
  }
  // Where an arrow starts or ends: a point of "me" or "them", in the owner's numbering.
  function spot(p, who) {
    if (p === 25) return [270, who === "me" ? 300 : 140];
    if (p === 0) return [565, who === "me" ? 380 : 60];
    const q = who === "me" ? p : 25 - p;
    return [pointX(q) + 20, bottom(q) ? 345 : 95];
  }

  function movesFrom(p) {
    return (state.moves || []).filter((m) => m[0] === p);
  }
  function moveTo(src, dst) {
    const found = (state.moves || []).filter((m) => m[0] === src && m[1] === dst);
    if (!found.length) return null;
    found.sort((a, b) => Math.abs(a[2] - (src - dst)) - Math.abs(b[2] - (src - dst)));
    return found[0];
  }

  // -- drawing -------------------------------------------------------------------------------
  function drawBoard() {
    const svg = el("svg", {
      // The frame reaches 12 further above and below, where the point numbers are read.
      viewBox: "0 -12 600 464", id: "svg", role: "img",
      "data-position-id": state.position_id || "", "data-match-id": state.match_id || "",
      "aria-label": plain(state.headline),
    });
    el("rect", { x: 0, y: -12, width: 600, height: 464, rx: 8, class: "frame" }, svg);
    el("rect", { x: 10, y: 10, width: 240, height: 420, class: "felt" }, svg);
    el("rect", { x: 290, y: 10, width: 240, height: 420, class: "felt" }, svg);
    const targets = new Set(selected === null ? [] : movesFrom(selected).map((m) => m[1]));
    const sources = new Set((state.moves || []).map((m) => m[0]));
    for (let p = 1; p <= 24; p++) drawPoint(svg, p, targets, sources);
    drawBar(svg, targets, sources);
    drawTrays(svg, targets);
    drawDice(svg);
    drawCube(svg);
    drawArrows(svg);
    const holder = $("board");
    holder.replaceChildren(svg);
    svg.addEventListener("pointerdown", down);
  }

  function drawPoint(svg, p, targets, sources) {
    const x = pointX(p), low = bottom(p);
    const g = el("g", { "data-point": p, class: "point" }, svg);
    if (targets.has(p)) g.classList.add("target");
    if (sources.has(p)) g.classList.add("movable");
    if (selected === p) g.classList.add("selected");
    const tip = low ? 250 : 190, foot = low ? 430 : 10;
    el("rect", { x: x, y: low ? 250 : 10, width: 40, height: 180, class: "hit" }, g);
    el("polygon", { points: `${x},${foot} ${x + 40},${foot} ${x + 20},${tip}`, class: "tri " + (p % 2 ? "odd" : "even") }, g);
    el("text", { x: x + 20, y: low ? 447 : 5, class: "num" }, g).textContent = p;
    const mine = state.mine[p - 1], theirs = state.theirs[24 - p];
    stack(g, p, mine > 0 ? mine : theirs, mine > 0 ? "me" : "them");
  }

  function stack(g, p, count, who) {
    const shown = Math.min(count, 5);
    for (let i = 0; i < shown; i++) {
      el("circle", { cx: pointX(p) + 20, cy: checkerY(p, i), r: 17, class: "checker " + who }, g);
    }
    if (count > 5) {
      el("text", { x: pointX(p) + 20, y: checkerY(p, 4) + 5, class: "count " + who }, g).textContent = count;
    }
  }

  function drawBar(svg, targets, sources) {
    const g = el("g", { "data-point": 25, class: "bar" }, svg);
    if (sources.has(25)) g.classList.add("movable");
    if (selected === 25) g.classList.add("selected");
    el("rect", { x: 250, y: 10, width: 40, height: 420, class: "barwood" }, g);
    const mine = state.mine[24], theirs = state.theirs[24];
    for (let i = 0; i < Math.min(mine, 4); i++) el("circle", { cx: 270, cy: 270 + i * 34, r: 17, class: "checker me" }, g);
    for (let i = 0; i < Math.min(theirs, 4); i++) el("circle", { cx: 270, cy: 170 - i * 34, r: 17, class: "checker them" }, g);
    if (mine > 4) el("text", { x: 270, y: 377, class: "count me" }, g).textContent = mine;
    if (theirs > 4) el("text", { x: 270, y: 73, class: "count them" }, g).textContent = theirs;
  }

  function drawTrays(svg, targets) {
    const mine = el("g", { "data-point": 0, class: "tray" }, svg);
    if (targets.has(0)) mine.classList.add("target");
    el("rect", { x: 540, y: 250, width: 50, height: 180, class: "traywood" }, mine);
    for (let i = 0; i < state.off[0]; i++) el("rect", { x: 545, y: 420 - i * 11, width: 40, height: 9, rx: 2, class: "slab me" }, mine);
    const theirs = el("g", { "data-tray": "them", class: "tray" }, svg);
    el("rect", { x: 540, y: 10, width: 50, height: 180, class: "traywood" }, theirs);
    for (let i = 0; i < state.off[1]; i++) el("rect", { x: 545, y: 12 + i * 11, width: 40, height: 9, rx: 2, class: "slab them" }, theirs);
  }

  function diceFaces() {
    if (!state.dice) return [];
    const [a, b] = state.dice.slice().sort((x, y) => y - x);  // high first, as players read a roll
    const all = a === b ? [a, a, a, a] : [a, b];
    const left = (state.dice_left || []).slice();
    let inUse = left.length ? left[0] : null;
    if (selected !== null) {
      const m = movesFrom(selected);
      if (m.length) inUse = m[0][2];
    }
    const faces = all.map((v) => {
      const i = left.indexOf(v);
      if (i >= 0) left.splice(i, 1);
      return { value: v, used: i < 0 && state.phase === "move", inuse: false };
    });
    const current = faces.find((f) => !f.used && f.value === inUse);
    if (current && state.phase === "move") current.inuse = true;
    return faces;
  }

  const PIPS = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };
  function drawDice(svg) {
    const faces = diceFaces();
    const x0 = state.dice_mine ? 410 - faces.length * 19 : 130 - faces.length * 19;
    faces.forEach((f, i) => {
      const x = x0 + i * 38;
      const g = el("g", { "data-die": f.value, class: "die" + (f.used ? " used" : "") + (f.inuse ? " inuse" : "") + (state.dice_mine ? " me" : " them") }, svg);
      el("rect", { x: x, y: 204, width: 32, height: 32, rx: 6 }, g);
      for (const [dx, dy] of PIPS[f.value]) el("circle", { cx: x + 16 + dx * 8, cy: 220 + dy * 8, r: 3.2 }, g);
      if (f.inuse) el("title", {}, g).textContent = words.die_in_use;
    });
  }

  function drawCube(svg) {
    const cube = state.cube;
    if (!cube || !cube.enabled) return;
    const y = cube.owner === "me" ? 392 : cube.owner === "them" ? 12 : 202;
    const g = el("g", { class: "cube", "data-cube": cube.value }, svg);
    el("rect", { x: 253, y: y, width: 34, height: 34, rx: 5 }, g);
    el("text", { x: 270, y: y + 23 }, g).textContent = cube.owner ? cube.value : 64;
  }

  function drawArrows(svg) {
    const defs = el("defs", {}, svg);
    for (const who of ["me", "them", "best"]) {
      const m = el("marker", { id: "head-" + who, viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" }, defs);
      el("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead " + who }, m);
    }
    const seen = {};  // the same move twice (13/8(2)): the second arcs a little wider
    for (const a of state.arrows || []) {
      const key = `${a.by}:${a.from}:${a.to}`;
      seen[key] = (seen[key] || 0) + 1;
      const d = arc(spot(a.from, a.by), spot(a.to, a.by), 14 * (seen[key] - 1));
      el("path", { d, class: "arrow " + a.by, "marker-end": `url(#head-${a.by})` }, svg);
    }
    // The review's better play, beside the one played: dashed, in a colour of its own.
    // Each arcs a little wider, so that two never look like one.
    (state.best_arrows || []).forEach((a, i) => {
      const d = arc(spot(a.from, a.by), spot(a.to, a.by), 12 * (i + 1));
      el("path", { d, class: "arrow best", "marker-end": "url(#head-best)" }, svg);
    });
  }

  // An arrow as a curve bending toward the middle of the field, as the pictures' arrows do:
  // one along a row arcs over the checkers between its ends, and two that share a stretch of
  // a row (8/3 6/3) arc apart, the longer one wider, instead of lying one on the other.
  function arc([x1, y1], [x2, y2], extra) {
    const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1;
    const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
    let nx = -dy / len, ny = dx / len;
    if ((270 - mx) * nx + (220 - my) * ny < 0) { nx = -nx; ny = -ny; }
    const bend = Math.min(0.22 * len, 90) + extra;
    return `M${x1},${y1} Q${(mx + nx * bend).toFixed(1)},${(my + ny * bend).toFixed(1)} ${x2},${y2}`;
  }

  function drawPanel() {
    $("headline").textContent = plain(state.headline);
    const who = [".me", ".them"];
    who.forEach((sel, i) => {
      const row = document.querySelector(".player" + sel);
      row.querySelector(".name").textContent = state.names[i];
      row.querySelector(".pips").textContent = `${state.pips[i]} ${words.pips}`;
      row.querySelector(".score").textContent = state.length ? `${words.score} ${state.score[i]}/${state.length}` : "";
      row.classList.toggle("turn", state.turn === (i ? "them" : "me"));
    });
    $("prompt").textContent = plain(state.prompt);
    $("cube").textContent = state.cube && state.cube.enabled ? String(state.cube.value) : "–";
    $("pid").textContent = state.position_id || "";
    $("mid").textContent = state.match_id || "";
    $("xgid").textContent = state.xgid || "-";
    // In the middle of a move the Position ID is the position drawn, the XGID the turn's
    // start (the decision, with its dice): the row says so, as the message's line does.
    $("xgid-name").textContent = state.mid_move ? words.xgid_turn : "XGID";
    $("role").textContent = state.seat === null ? words.spectator : words.player;
    // A finished game is replayed, not played: no way to move, no live stream, no clock.
    for (const e of [$("role"), $("status"), $("clock"), document.querySelector("dt[data-word=clock]")]) {
      e.hidden = state.over;
    }
    drawButtons();
    drawReplay();
    drawReview();
    drawLinks();
    tick();
  }

  function button(parent, action, label, arg) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.action = action;
    if (arg !== null && arg !== undefined) b.dataset.arg = arg;
    b.textContent = label;
    parent.appendChild(b);
    return b;
  }

  function drawButtons() {
    const box = $("actions"), resigns = $("resigns");
    box.replaceChildren();
    resigns.replaceChildren();
    resigns.hidden = true;
    for (const b of state.buttons || []) button(box, b.action, b.label, b.arg);
    for (const b of state.resign || []) button(resigns, "resign", b.label, b.arg);
  }

  function drawReplay() {
    const box = $("replay");
    box.hidden = !state.over;
    if (!state.over) return;
    const at = state.at === null ? state.actions_count : state.at;
    const slider = $("slider");
    slider.max = state.actions_count;
    slider.value = at;
    $("at").textContent = `${at} / ${state.actions_count}`;
    for (const w of ["first", "prev", "next", "last"]) box.querySelector(`[data-action=${w}]`).textContent = words[w];
  }

  // -- the review: the decision of this step, each player's PR, the winning chances ----------
  function drawReview() {
    const box = $("review"), r = state.review, ask = state.review_ask;
    box.hidden = !r && !ask;
    if (box.hidden) return;
    $("review-title").textContent = r ? r.title : ask.none;
    const d = r && r.decision;
    const line = $("decision");
    line.hidden = !d;
    line.className = d && d.mark ? d.mark : "";
    $("decision-text").textContent = d ? plain(d.text) : "";
    $("mark").textContent = d && d.mark_text ? d.mark_text : "";
    $("prs").replaceChildren(...(r ? r.players : []).map((text) => {
      const li = document.createElement("li");
      li.textContent = plain(text);
      return li;
    }));
    $("chart-title").textContent = r ? r.chart.title : "";
    drawChart(r ? r.chart.points : []);
    const b = $("ask-review");
    b.hidden = !ask;
    if (ask && !b.disabled) b.textContent = ask.label;
  }

  function drawChart(points) {
    const holder = $("chart");
    if (!points.length) { holder.replaceChildren(); return; }
    const n = Math.max(1, state.actions_count), W = 300, H = 90;
    const x = (k) => (k / n) * W, y = (p) => H - (p / 100) * H;
    const svg = el("svg", { viewBox: `-2 -2 ${W + 4} ${H + 4}`, role: "img", "aria-label": $("chart-title").textContent });
    el("rect", { x: 0, y: 0, width: W, height: H, class: "chartbg" }, svg);
    el("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: "half" }, svg);
    for (const k of state.review.marks || []) el("line", { x1: x(k), y1: H - 6, x2: x(k), y2: H, class: "marktick" }, svg);
    el("polyline", { points: points.map((p) => `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(" "), class: "chances" }, svg);
    const at = state.at === null ? state.actions_count : state.at;
    el("line", { x1: x(at), y1: 0, x2: x(at), y2: H, class: "now" }, svg);
    svg.addEventListener("click", (e) => {
      const p = svgPoint(svg, e);
      show(Math.round((p.x / W) * n));
    });
    holder.replaceChildren(svg);
  }

  async function askReview(b) {
    if (busy) return;
    b.disabled = true;
    b.textContent = state.review_ask.asking;
    await send("/review" + query({ at: state.at }), {}, {});
    b.disabled = false;
    if (state.review_ask) b.textContent = state.review_ask.label;
  }

  function drawLinks() {
    const mat = $("mat");
    mat.href = base + "/game.mat";
    mat.textContent = words.mat;
    mat.hidden = !state.over;
    const replay = $("replay-link");
    replay.hidden = true;
    const lang = $("lang");
    const q = new URLSearchParams(location.search);
    q.set("lang", boot.lang === "fr" ? "en" : "fr");
    lang.href = "?" + q.toString();
    lang.textContent = words.other_lang;
  }

  let clockTimer = null, clockEnd = null;
  function tick() {
    clockEnd = state.seconds_left === null ? null : Date.now() + state.seconds_left * 1000;
    if (!clockTimer) clockTimer = setInterval(showClock, 1000);
    showClock();
  }
  function showClock() {
    if (clockEnd === null) { $("clock").textContent = "–"; return; }
    const s = Math.max(0, Math.round((clockEnd - Date.now()) / 1000));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    $("clock").textContent = (h ? h + ":" + String(m).padStart(2, "0") : m) + ":" + String(r).padStart(2, "0");
  }

  function draw(next) {
    if (next) state = next;
    if (!(state.moves || []).some((m) => m[0] === selected)) selected = null;
    document.body.classList.toggle("dark-me", !!state.dark_me);
    drawBoard();
    drawPanel();
    document.body.dataset.version = state.version;
    document.body.dataset.at = state.at === null ? "" : state.at;
  }

  // -- acting --------------------------------------------------------------------------------
  function refuse(text) {
    const box = $("refusal");
    box.textContent = plain(text);
    box.hidden = !text;
  }

  // What the last action led through (the computer's roll and play, a take, a forced move):
  // kept until the next action, since the board shows only where it led.
  function tell(lines) {
    const box = $("events");
    box.replaceChildren(...lines.map((line) => {
      const li = document.createElement("li");
      li.textContent = plain(line);
      return li;
    }));
    box.hidden = !lines.length;
  }

  // One POST at a time (/act, /review): its refusal shown, the state it answers with drawn.
  async function send(path, headers, body) {
    if (busy) return;
    busy = true;
    refuse("");
    try {
      const response = await fetch(base + path, {
        method: "POST",
        headers: Object.assign({ "Content-Type": "application/json" }, headers),
        body: JSON.stringify(body),
        credentials: "omit",
      });
      const answer = await response.json();
      if (!answer.ok) refuse(answer.text);
      else if (answer.events) tell(answer.events);
      if (answer.state) draw(answer.state);
    } catch (e) {
      refuse(words.offline);
    } finally {
      busy = false;
    }
  }

  async function act(action, arg) {
    if (!boot.page) return;
    const body = { version: state.version, action: action, arg: arg === undefined ? null : arg };
    await send("/act" + query(), { "X-Page-Token": boot.page }, body);
  }

  function pointOf(target) {
    const g = target && target.closest ? target.closest("[data-point]") : null;
    return g ? Number(g.dataset.point) : null;
  }

  function pick(p) {
    if (p === null) { selected = null; drawBoard(); return; }
    if (selected !== null && p !== selected) {
      const m = moveTo(selected, p);
      if (m) { selected = null; act("move", `${m[0]}-${m[2]}`); return; }
    }
    selected = movesFrom(p).length && selected !== p ? p : null;
    drawBoard();
  }

  function svgPoint(svg, event) {
    const pt = svg.createSVGPoint();
    pt.x = event.clientX; pt.y = event.clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  }

  function down(event) {
    const p = pointOf(event.target);
    if (p === null || state.at !== null) return;
    const svg = $("svg");
    const checker = event.target.closest(".checker.me");
    if (checker && movesFrom(p).length) {
      event.preventDefault();
      const at = svgPoint(svg, event);
      const ghost = el("circle", { cx: at.x, cy: at.y, r: 17, class: "checker me ghost" }, svg);
      drag = { from: p, x: event.clientX, y: event.clientY, ghost: ghost, moved: false };
      window.addEventListener("pointermove", move);
      window.addEventListener("pointerup", up, { once: true });
      return;
    }
    pick(p);
  }

  function move(event) {
    if (!drag) return;
    if (Math.abs(event.clientX - drag.x) + Math.abs(event.clientY - drag.y) > 6) drag.moved = true;
    const at = svgPoint($("svg"), event);
    drag.ghost.setAttribute("cx", at.x);
    drag.ghost.setAttribute("cy", at.y);
  }

  function up(event) {
    window.removeEventListener("pointermove", move);
    const d = drag;
    drag = null;
    if (!d) return;
    d.ghost.remove();
    if (!d.moved) { pick(d.from); return; }
    const p = pointOf(document.elementFromPoint(event.clientX, event.clientY));
    const m = p === null ? null : moveTo(d.from, p);
    if (m) { selected = null; act("move", `${m[0]}-${m[2]}`); } else { selected = null; drawBoard(); }
  }

  // -- replay ----------------------------------------------------------------------------------
  // One step fetched at a time: keys held down or pressed fast ask for steps faster than the
  // server answers (and than its limit lets through); the latest asked is shown next, and
  // each press counts from the step asked last, not the one drawn.
  let wanted = null, asked = null, fetching = false;
  async function show(at) {
    wanted = asked = Math.max(0, Math.min(state.actions_count, at));
    if (fetching) return;
    fetching = true;
    try {
      while (wanted !== null) {
        const target = wanted;
        const response = await fetch(base + "/state" + query({ at: target }));
        if (response.status === 429) { await new Promise((r) => setTimeout(r, 300)); continue; }
        if (response.ok) {
          draw(await response.json());
          tell([]);  // the last action's events belong to the end, not to a step of the replay
          const q = new URLSearchParams(location.search);
          q.set("at", target);
          history.replaceState(null, "", "?" + q.toString());
        }
        if (wanted === target) wanted = null;  // asked again meanwhile: fetch that next
      }
    } finally {
      fetching = false;
      asked = null;  // the step drawn is the one asked last
    }
  }
  function step(word) {
    const drawn = state.at === null ? state.actions_count : state.at;
    const now = asked === null ? drawn : asked;
    const to = { first: 0, prev: now - 1, next: now + 1, last: state.actions_count }[word];
    show(to);
  }

  document.addEventListener("click", (event) => {
    const b = event.target.closest("button[data-action]");
    if (!b) return;
    const action = b.dataset.action;
    if (["first", "prev", "next", "last"].includes(action)) return step(action);
    if (action === "review") return askReview(b);
    if (action === "resign" && b.dataset.arg === undefined) { $("resigns").hidden = !$("resigns").hidden; return; }
    act(action, b.dataset.arg);
  });
  $("slider").addEventListener("input", (e) => show(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (!state.over || e.target.tagName === "INPUT") return;
    const word = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[e.key];
    if (word) { e.preventDefault(); step(word); }
  });

  // -- live ----------------------------------------------------------------------------------
  function listen() {
    const source = new EventSource(base + "/events" + query());
    source.onopen = () => {
      $("status").textContent = "● " + words.live;
      document.body.dataset.live = "1";
      if ($("refusal").textContent === plain(words.offline)) refuse("");  // back: no longer true
    };
    source.onerror = () => { $("status").textContent = words.offline; document.body.dataset.live = ""; };
    source.onmessage = (e) => {
      const next = JSON.parse(e.data);
      if (state.at !== null || next.version <= state.version) return;
      tell([]);  // what this page's last action led through: the game has moved on since
      draw(next);
    };
  }

  // A newer state from elsewhere (the Activity's own checks, should a proxy hold the stream back).
  document.addEventListener("board:state", (e) => { if (state.at === null && e.detail.version > state.version) draw(e.detail); });
  document.querySelectorAll("[data-word]").forEach((n) => { n.textContent = words[n.dataset.word] || n.textContent; });
  draw();
  document.body.dataset.drawn = Math.round(performance.now()); // ms from the navigation's start
  if (!state.over || state.at === null) listen();
})();
