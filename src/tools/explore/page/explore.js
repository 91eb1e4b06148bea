// Lull explore: the page's script. All chess knowledge (legal moves, SAN, FENs after
// moves) comes from the server's JSON API; this script draws and asks.
"use strict";

const $ = (id) => document.getElementById(id);
const START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const GLYPHS = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };

const state = {
  fen: START_FEN,
  moves: [],        // legal moves of the position (from /api/moves)
  history: [],      // earlier FENs, for Undo
  selected: null,   // square of the piece picked on the big board
  lastMove: null,   // [from, to] of the move clicked last
  options: [],      // the quiescence options (from /api/options)
  job: null,        // running job id
  result: null,     // the last result shown
  pinned: null,     // the tree node kept in the detail panel
};

function showError(message) {
  const e = $("error");
  e.textContent = message || "";
  e.hidden = !message;
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new Error("the server cannot be reached (" + err.message + ")");
  }
  let data;
  try {
    data = await response.json();
  } catch (err) {
    throw new Error("the server's answer is not JSON (status " + response.status + ")");
  }
  if (!response.ok) throw new Error(data.error || "status " + response.status);
  return data;
}

// --- boards -----------------------------------------------------------------------------

function placement(fen) {
  // 64 entries, a8 first: "" or a piece letter (upper case for White).
  const out = [];
  const rows = (fen || "").split(" ")[0].split("/");
  for (const row of rows.slice(0, 8)) {
    for (const ch of row) {
      if (/[1-8]/.test(ch)) for (let i = 0; i < Number(ch); i++) out.push("");
      else out.push(ch);
    }
  }
  while (out.length < 64) out.push("");
  return out.slice(0, 64);
}

function squareName(index) {
  return "abcdefgh"[index % 8] + (8 - Math.floor(index / 8));
}

function drawBoard(el, fen, marks) {
  marks = marks || {};
  el.textContent = "";
  const cells = placement(fen);
  cells.forEach((piece, i) => {
    const sq = document.createElement("div");
    const name = squareName(i);
    const dark = (Math.floor(i / 8) + (i % 8)) % 2 === 1;
    sq.className = "sq " + (dark ? "dark" : "light");
    sq.dataset.square = name;
    if (marks.selected === name) sq.classList.add("sel");
    if (marks.targets && marks.targets.has(name)) sq.classList.add("target");
    if (marks.last && marks.last.includes(name)) sq.classList.add("last");
    if (piece) {
      const span = document.createElement("span");
      span.className = piece === piece.toUpperCase() ? "pc-w" : "pc-b";
      span.textContent = GLYPHS[piece.toLowerCase()] || "?";
      sq.appendChild(span);
    }
    el.appendChild(sq);
  });
}

function drawMainBoard() {
  const targets = new Set(
    state.moves.filter((m) => m.from === state.selected).map((m) => m.to));
  drawBoard($("board"), state.fen, { selected: state.selected, targets, last: state.lastMove });
}

async function setPosition(fen, keepHistory) {
  const data = await api("POST", "/api/moves", { fen });
  if (!keepHistory) state.history = [];
  state.fen = data.fen;
  state.moves = data.moves;
  state.selected = null;
  $("fen").value = data.fen;
  const side = data.side === "white" ? "White" : "Black";
  $("position-status").textContent =
    data.status === "playing"
      ? side + " to move" + (data.in_check ? " (in check)" : "") + ", " + data.moves.length + " legal moves"
      : data.status === "checkmate" ? side + " is checkmated" : side + " is stalemated";
  drawMainBoard();
  updateUrl();
}

function onBoardClick(event) {
  const sq = event.target.closest(".sq");
  if (!sq) return;
  const name = sq.dataset.square;
  if (state.selected) {
    let candidates = state.moves.filter((m) => m.from === state.selected && m.to === name);
    if (candidates.length > 1) {
      const promo = $("promotion").value;
      candidates = candidates.filter((m) => m.promotion === promo);
    }
    if (candidates.length === 1) {
      const move = candidates[0];
      state.history.push(state.fen);
      state.lastMove = [move.from, move.to];
      showError("");
      setPosition(move.fen, true).catch((e) => showError(e.message));
      return;
    }
  }
  state.selected = state.moves.some((m) => m.from === name) ? name : null;
  drawMainBoard();
}

function updateUrl() {
  const params = new URLSearchParams();
  params.set("fen", state.fen);
  params.set("depth", $("depth").value);
  history.replaceState(null, "", "/?" + params.toString());
}

// --- options ------------------------------------------------------------------------------

async function loadOptions() {
  const data = await api("GET", "/api/options");
  state.options = data.options;
  const box = $("options");
  for (const opt of data.options) {
    const label = document.createElement("label");
    const text = document.createElement("span");
    text.textContent = opt.name;
    const input = document.createElement("input");
    input.id = "opt-" + opt.name;
    input.dataset.option = opt.name;
    if (opt.type === "check") {
      input.type = "checkbox";
      input.checked = opt.default;
      text.title = "default " + opt.default;
    } else {
      input.type = "number";
      input.min = opt.min;
      input.max = opt.max;
      input.value = opt.default;
      text.title = "default " + opt.default + ", from " + opt.min + " to " + opt.max;
    }
    input.addEventListener("change", () => { if (state.result) startSearch(); });
    label.append(text, input);
    box.appendChild(label);
  }
}

function chosenOptions() {
  const out = {};
  for (const opt of state.options) {
    const input = $("opt-" + opt.name);
    if (opt.type === "check") {
      if (input.checked !== opt.default) out[opt.name] = input.checked;
    } else if (String(input.value) !== String(opt.default)) {
      out[opt.name] = input.value;
    }
  }
  return out;
}

// --- searching ------------------------------------------------------------------------------

async function startSearch() {
  showError("");
  if (state.job !== null) {
    api("POST", "/api/job/" + state.job + "/stop").catch(() => {});
    state.job = null;
  }
  updateUrl();
  let started;
  try {
    started = await api("POST", "/api/search", {
      fen: $("fen").value.trim() || state.fen,
      depth: $("depth").value,
      options: chosenOptions(),
    });
  } catch (e) {
    showError(e.message);
    return;
  }
  state.job = started.id;
  $("stop").hidden = false;
  $("progress").textContent = "searching...";
  poll(started.id);
}

async function poll(id) {
  if (state.job !== id) return;
  let job;
  try {
    job = await api("GET", "/api/job/" + id);
  } catch (e) {
    showError(e.message);
    state.job = null;
    $("stop").hidden = true;
    return;
  }
  if (state.job !== id) return;
  if (job.state === "running") {
    const p = job.progress;
    const phase = { without: "QSearch off", with: "QSearch on", tree: "quiescence tree" }[p.phase] || p.phase;
    $("progress").textContent = p.phase === "tree"
      ? "building the " + phase + "..."
      : phase + ": depth " + p.depth + ", " + p.nodes + " nodes, score " + (p.score_text || "?") +
        (p.pv.length ? ", pv " + p.pv.join(" ") : "");
    setTimeout(() => poll(id), 150);
    return;
  }
  state.job = null;
  $("stop").hidden = true;
  $("progress").textContent =
    job.state === "done" ? "done" : job.state === "stopped" ? "stopped: partial result" : "failed";
  if (job.error) showError(job.error);
  if (job.result) showResult(job.result);
}

async function stopSearch() {
  if (state.job === null) return;
  try {
    await api("POST", "/api/job/" + state.job + "/stop");
  } catch (e) {
    showError(e.message);
  }
}

// --- results ------------------------------------------------------------------------------

function scoreClass(score) {
  return score > 0 ? "score pos" : score < 0 ? "score neg" : "score";
}

function showResult(r) {
  state.result = r;
  for (const [key, side] of [["without", "without-qsearch"], ["with", "with-qsearch"]]) {
    const s = r[key];
    const cell = $("score-" + side);
    cell.textContent = s ? s.score_text : "(stopped)";
    cell.className = s ? scoreClass(s.score) : "score";
    $("best-" + side).textContent = s ? s.best || "(none)" : "";
    $("nodes-" + side).textContent = s ? s.nodes : "";
    $("seldepth-" + side).textContent = s ? s.seldepth : "";
    setupPv($("pv-" + key), r.fen, s ? s.pv : []);
  }
  const w = r.without, q = r.with;
  let note = "";
  if (w && q) {
    if ((w.score > 0 && q.score < 0) || (w.score < 0 && q.score > 0)) {
      note = "The scores have opposite signs: without the quiescence search the last ply's " +
        "capture is scored before the reply that refutes it (the horizon effect).";
    } else if (w.best !== q.best) {
      note = "The best moves differ: the leaves the search without quiescence scores statically are not quiet.";
    } else {
      note = "Both searches agree on the move and the sign of the score.";
    }
  }
  $("horizon-note").textContent = note;
  const used = Object.entries(r.options || {}).map(([k, v]) => k + "=" + v);
  $("run-options").textContent = "Depth " + r.depth + "; options: " +
    (used.length ? used.join(", ") : "defaults");
  showStats(w, q);
  showTree(r.tree);
}

function setupPv(box, fen, line) {
  const board = box.querySelector(".board");
  const moves = box.querySelector(".moves");
  let index = 0; // moves played on the small board
  const draw = () => {
    const current = index === 0 ? fen : line[index - 1].fen;
    const last = index === 0 ? null : [line[index - 1].uci.slice(0, 2), line[index - 1].uci.slice(2, 4)];
    drawBoard(board, current, { last });
    moves.querySelectorAll("span").forEach((s, i) => s.classList.toggle("cur", i === index - 1));
  };
  moves.textContent = "";
  line.forEach((m, i) => {
    const span = document.createElement("span");
    span.textContent = m.san;
    span.addEventListener("click", () => { index = i + 1; draw(); });
    moves.appendChild(span);
  });
  if (!line.length) moves.textContent = "(no moves)";
  box.querySelector(".back").onclick = () => { if (index > 0) { index--; draw(); } };
  box.querySelector(".fwd").onclick = () => { if (index < line.length) { index++; draw(); } };
  draw();
}

function showStats(w, q) {
  const body = $("stats").querySelector("tbody");
  body.textContent = "";
  const rows = new Map();
  for (const [col, s] of [[0, w], [1, q]]) {
    if (!s) continue;
    for (const [name, value] of s.stats_table) {
      if (!rows.has(name)) rows.set(name, ["", ""]);
      rows.get(name)[col] = value;
    }
  }
  for (const [name, values] of rows) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.textContent = name;
    tr.appendChild(th);
    for (const v of values) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}

// --- quiescence tree ------------------------------------------------------------------------------

function showTree(tree) {
  const area = $("tree");
  area.textContent = "";
  state.pinned = null;
  showDetail(null);
  if (!tree || !tree.root) {
    $("tree-header").textContent = tree ? "The quiescence search recorded no tree." : "(no tree: the search was stopped)";
    return;
  }
  const where = tree.path && tree.path.length
    ? "after " + tree.path.join(" ") + " (the end of the PV without quiescence: where that search evaluated statically)"
    : "at the root";
  $("tree-header").textContent =
    "Quiescence search " + where + ": result " + tree.score_text + " for the side to move there" +
    (tree.pv.length ? ", line " + tree.pv.join(" ") : ", standing pat") + "; " +
    tree.shown_nodes + " searched nodes and " + tree.shown_pruned + " pruned moves shown, " +
    tree.qnodes + " q-nodes in all" + (tree.truncated ? " (tree cut at " + tree.max_nodes + ")" : "") +
    ". Scores are from the side to move at each node; bold moves lie on the PV.";
  const ul = document.createElement("ul");
  ul.appendChild(treeItem(tree.root, 0));
  area.appendChild(ul);
}

function treeItem(node, depth) {
  const li = document.createElement("li");
  const toggle = document.createElement("span");
  toggle.className = "toggle";
  li.appendChild(toggle);
  const label = document.createElement("span");
  if (node.kind === "pruned") {
    label.className = "qpruned";
    label.textContent = node.label + "  (" + node.reason + ")";
  } else {
    label.className = "qnode" + (node.on_pv ? " onpv" : "");
    const mv = document.createElement("span");
    mv.className = "mv";
    mv.textContent = node.label;
    label.appendChild(mv);
    label.appendChild(document.createTextNode(
      "  " + (node.score_text || "?") + "  [" + node.window[0] + ", " + node.window[1] + "]  " + node.end));
  }
  label.addEventListener("mouseenter", () => showDetail(node));
  label.addEventListener("mouseleave", () => showDetail(state.pinned ? state.pinned.node : null));
  label.addEventListener("click", () => {
    if (state.pinned) state.pinned.el.classList.remove("selected");
    state.pinned = { node, el: label };
    label.classList.add("selected");
    showDetail(node);
  });
  li.appendChild(label);
  const kids = node.children || [];
  if (kids.length) {
    toggle.textContent = "\u25BE";
    const ul = document.createElement("ul");
    for (const child of kids) ul.appendChild(treeItem(child, depth + 1));
    li.appendChild(ul);
    const setFolded = (folded) => {
      li.classList.toggle("folded", folded);
      toggle.textContent = folded ? "\u25B8" : "\u25BE";
    };
    setFolded(depth >= 2 && !node.on_pv);
    toggle.addEventListener("click", () => setFolded(!li.classList.contains("folded")));
  }
  if (node.hidden) {
    const more = document.createElement("li");
    more.className = "hint";
    more.textContent = "... " + node.hidden + " more not shown";
    (li.querySelector("ul") || li).appendChild(more);
  }
  return li;
}

function addField(dl, name, value) {
  const dt = document.createElement("dt");
  dt.textContent = name;
  const dd = document.createElement("dd");
  dd.textContent = value;
  dl.append(dt, dd);
}

function showDetail(node) {
  const box = $("node-detail");
  box.textContent = "";
  if (!node) {
    const p = document.createElement("p");
    p.className = "hint";
    p.textContent = "Hover a node to see its position, its pruned moves and why; click it to keep it here.";
    box.appendChild(p);
    return;
  }
  const title = document.createElement("h3");
  title.id = "node-title";
  title.textContent = node.kind === "pruned" ? node.label + " (pruned)" : node.label;
  box.appendChild(title);
  if (node.fen) {
    const board = document.createElement("div");
    board.className = "board tiny";
    drawBoard(board, node.fen, {});
    box.appendChild(board);
  }
  const dl = document.createElement("dl");
  dl.id = "node-fields";
  if (node.kind === "pruned") {
    addField(dl, "why", node.reason);
    if (node.see !== null && node.see !== undefined) addField(dl, "SEE", node.see);
    addField(dl, "position after", node.fen || "?");
  } else {
    addField(dl, "q-ply", node.qply);
    addField(dl, "window", "[" + node.window[0] + ", " + node.window[1] + "]");
    addField(dl, "in check", node.in_check ? "yes" : "no");
    addField(dl, "stand pat", node.stand_pat_text || "-");
    addField(dl, "score", node.score_text || "?");
    addField(dl, "ended by", node.end);
    addField(dl, "FEN", node.fen || "?");
  }
  box.appendChild(dl);
  if (node.kind !== "pruned") {
    const pruned = (node.children || []).filter((c) => c.kind === "pruned");
    const h = document.createElement("h4");
    h.textContent = pruned.length ? "Pruned moves" : "No pruned moves";
    box.appendChild(h);
    if (pruned.length) {
      const ul = document.createElement("ul");
      ul.id = "node-pruned";
      for (const p of pruned) {
        const li = document.createElement("li");
        li.textContent = p.label + ": " + p.reason;
        ul.appendChild(li);
      }
      box.appendChild(ul);
    }
  }
}

// --- start ------------------------------------------------------------------------------

async function init() {
  $("board").addEventListener("click", onBoardClick);
  $("set-fen").addEventListener("click", () => {
    showError("");
    state.lastMove = null;
    setPosition($("fen").value.trim()).catch((e) => showError(e.message));
  });
  $("fen").addEventListener("keydown", (e) => { if (e.key === "Enter") $("set-fen").click(); });
  $("undo").addEventListener("click", () => {
    const fen = state.history.pop();
    if (fen) {
      state.lastMove = null;
      setPosition(fen, true).catch((e) => showError(e.message));
    }
  });
  $("search").addEventListener("click", startSearch);
  $("stop").addEventListener("click", stopSearch);
  $("depth").addEventListener("change", () => { updateUrl(); if (state.result) startSearch(); });
  const params = new URLSearchParams(location.search);
  if (params.get("depth")) $("depth").value = params.get("depth");
  try {
    await loadOptions();
  } catch (e) {
    showError(e.message);
  }
  const fen = params.get("fen");
  try {
    await setPosition(fen || START_FEN);
  } catch (e) {
    showError(e.message);
    $("fen").value = fen;
    return;
  }
  if (fen) startSearch();
}

init();
