// Lull explore: the page's script. All chess knowledge (legal moves, SAN, FENs after
// moves) comes from the server's JSON API; this script draws and asks.
"use strict";

const $ = (id) => document.getElementById(id);
const START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const GLYPHS = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
const SVG_NS = "http://www.w3.org/2000/svg";
const GROUPS = { quiescence: "Quiescence search", main: "Main search", evaluation: "Evaluation" };
const CPW = "https://www.chessprogramming.org/";

// Each option: what it does in one line (with its unit) and its place in the literature.
const OPTION_DOCS = {
  QSearch: ["the quiescence search at the horizon (off: the leaf is scored by the static evaluation)", "Quiescence_Search"],
  QSearchMaxPly: ["plies past the horizon the quiescence search may go; a node there is scored statically (plies)", "Quiescence_Search"],
  QSearchMaxNodes: ["quiescence nodes a search may spend; past them nodes are scored statically (nodes, 0: no cap)", "Quiescence_Search"],
  QSearchChecks: ["q-plies from the horizon in which quiet checks are tried besides captures (plies)", "Quiescence_Search#Checks"],
  QSearchSEE: ["a capture whose static exchange evaluation is below this is skipped (centipawns)", "Static_Exchange_Evaluation"],
  QSearchDelta: ["delta pruning: a capture is skipped when stand pat + victim + this margin cannot reach alpha (centipawns, 0: off)", "Delta_Pruning"],
  QSearchDeltaChecks: ["never delta-prune a capture that gives check (it may mate)", "Delta_Pruning"],
  QSearchTT: ["the transposition table probed and stored in the quiescence search", "Transposition_Table"],
  QSearchUnderpromotions: ["promotions to rook, bishop and knight searched too, not only to a queen", "Promotions"],
  QSearchPawnPushes: ["pawn pushes to the seventh rank searched too (quiet moves that threaten to queen)", "Quiescence_Search"],
  QSearchRecapturesAfter: ["from this q-ply on only recaptures on the last capture's square are searched (plies, 0: never)", "Quiescence_Search"],
  QSearchNullMove: ["Beal's null-move quiescence: the stand pat lowered by what the opponent wins if the side to move passes (0 off, 1 at q-ply 0, 2 every q-ply)", "Null_Move_Pruning"],
  Razoring: ["main search: near the horizon a node far below alpha drops into the quiescence search", "Razoring"],
  ReverseFutility: ["main search: a node whose static evaluation beats beta by a depth-scaled margin returns at once", "Reverse_Futility_Pruning"],
  NullMovePruning: ["main search: pass, and end the node when a reduced search after the pass still beats beta", "Null_Move_Pruning"],
  ProbCut: ["main search: a shallow search of captures beating beta by a margin ends the node", "ProbCut"],
  FutilityPruning: ["main search: near the horizon quiet moves that cannot lift the evaluation to alpha are skipped", "Futility_Pruning"],
  LateMovePruning: ["main search: near the horizon late quiet moves are skipped", "Futility_Pruning#MoveCountBasedPruning"],
  SEEPruning: ["main search: moves losing material by exchange are skipped near the horizon", "Static_Exchange_Evaluation"],
  LateMoveReductions: ["main search: late moves searched to a smaller depth first", "Late_Move_Reductions"],
  CaptureHistory: ["main search: captures ordered by how often each cut off before", "History_Heuristic"],
  SingularExtensions: ["main search: a move much better than every other is searched one ply deeper", "Singular_Extensions"],
  TacticalMode: ["analysis for tactics: no reverse futility and the other changes for mate problems", "Search"],
  "Use NNUE": ["the neural network evaluates (off: the hand-crafted evaluation, terms a person can read)", "NNUE"],
};

// The steps that end a quiescence node, and what a pruned move's reason means.
const TERMS = {
  stand_pat: ["stand pat \u2265 beta: the static evaluation, a lower bound since the side to move may decline every capture, already beats beta", "Quiescence_Search#StandPat"],
  beta_cutoff: ["beta cutoff: a move scored at least beta, so the opponent avoids this node and the other moves need no search", "Beta-Cutoff"],
  all_searched: ["every move searched or pruned and none reached beta: the best of them (or the stand pat) is the score", "Quiescence_Search"],
  quiet: ["no captures left: no forcing move to try, the stand pat is the score", "Quiescence_Search"],
  tt: ["TT cutoff: the transposition table held a bound for this position that settles the window", "Transposition_Table"],
  cap: ["cap: QSearchMaxPly or QSearchMaxNodes reached, the node is scored by the static evaluation", "Quiescence_Search"],
  mate_distance: ["mate distance pruning: a mate found nearer the root cannot be beaten here", "Mate_Distance_Pruning"],
  mate: ["checkmate: in check with no legal move (no standing pat in check)", "Checkmate"],
  stalemate: ["stalemate: no legal move, not in check, a draw", "Stalemate"],
  draw: ["a draw by rule: repetition, the fifty-move rule or insufficient material", "Draw"],
  tablebase: ["the endgame tablebases gave the result", "Endgame_Tablebases"],
  stopped: ["the search was stopped before the node ended", "Quiescence_Search"],
  see: ["SEE pruned: the static exchange evaluation of the capture (the whole swap on its square, pins ignored) is below QSearchSEE", "Static_Exchange_Evaluation"],
  delta: ["delta pruned: stand pat + the captured piece + the QSearchDelta margin cannot reach alpha", "Delta_Pruning"],
  recapture: ["not a recapture: past QSearchRecapturesAfter only captures on the last capture's square are searched", "Quiescence_Search"],
};

// An element with a one-line explanation and a link to the literature.
function explain(key, table) {
  const e = (table || TERMS)[key];
  const span = document.createElement("span");
  span.className = "explain";
  if (!e) return span;
  span.appendChild(document.createTextNode(e[0] + " "));
  const a = document.createElement("a");
  a.href = CPW + e[1];
  a.target = "_blank";
  a.rel = "noopener";
  a.textContent = "(literature)";
  span.appendChild(a);
  return span;
}

const state = {
  fen: START_FEN,
  moves: [],        // legal moves of the position (from /api/moves)
  history: [],      // earlier FENs, for Undo
  selected: null,   // square of the piece picked on the big board
  lastMove: null,   // [from, to] of the move clicked last
  options: [],      // the options the page can set (from /api/options)
  tour: [],         // the guided tour (from /api/tour)
  tourId: null,     // the tour stop shown
  job: null,        // running job id
  result: null,     // the last result shown
  treeMoves: null,  // where the tree is (UCI moves from the position); null: the horizon
  trees: null,      // the trees shown: [A] or [A, B]
  treeFen: null,    // the position the trees' paths start from
  pinned: null,     // the tree node kept in the detail panel
  view: null,       // a line shown on the big board: {fens, ucis, sans, index, title}
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

function abMode() {
  return $("ab-mode").checked;
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

// Draws `fen` into the board element `el`: pieces, coordinates (ranks on the a-file, files
// on the first rank), marks, and the arrows `marks.arrows` ([{from, to, kind}]) over it.
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
    if (i % 8 === 0) {
      const r = document.createElement("span");
      r.className = "coord rank";
      r.textContent = name[1];
      sq.appendChild(r);
    }
    if (i >= 56) {
      const f = document.createElement("span");
      f.className = "coord file";
      f.textContent = name[0];
      sq.appendChild(f);
    }
    if (piece) {
      const span = document.createElement("span");
      span.className = piece === piece.toUpperCase() ? "pc-w" : "pc-b";
      span.textContent = GLYPHS[piece.toLowerCase()] || "?";
      sq.appendChild(span);
    }
    el.appendChild(sq);
  });
  drawArrows(el.parentElement, marks.arrows || []);
}

function squareCentre(name) {
  const file = name.charCodeAt(0) - 97;
  const rank = Number(name[1]);
  return [file + 0.5, 8 - rank + 0.5];
}

// Arrows over a board: an SVG in the board's wrapper, 8 by 8 units.
function drawArrows(wrap, arrows) {
  if (!wrap || !wrap.classList.contains("board-wrap")) return;
  let svg = wrap.querySelector("svg.arrows");
  if (svg) svg.remove();
  const valid = arrows.filter((a) => a && /^[a-h][1-8]$/.test(a.from) && /^[a-h][1-8]$/.test(a.to) && a.from !== a.to);
  if (!valid.length) return;
  svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", "arrows");
  svg.setAttribute("viewBox", "0 0 8 8");
  const defs = document.createElementNS(SVG_NS, "defs");
  for (const kind of ["best", "threat", "line"]) {
    const marker = document.createElementNS(SVG_NS, "marker");
    marker.setAttribute("id", "head-" + kind + "-" + (wrap.id || "w"));
    marker.setAttribute("viewBox", "0 0 4 4");
    marker.setAttribute("refX", "2");
    marker.setAttribute("refY", "2");
    marker.setAttribute("markerWidth", "3");
    marker.setAttribute("markerHeight", "3");
    marker.setAttribute("orient", "auto");
    const path = document.createElementNS(SVG_NS, "path");
    path.setAttribute("d", "M0,0 L4,2 L0,4 z");
    path.setAttribute("class", kind);
    marker.appendChild(path);
    defs.appendChild(marker);
  }
  svg.appendChild(defs);
  for (const a of valid) {
    const [x1, y1] = squareCentre(a.from);
    const [x2, y2] = squareCentre(a.to);
    const len = Math.hypot(x2 - x1, y2 - y1);
    const k = (len - 0.35) / len; // stop short of the centre: the head ends there
    const line = document.createElementNS(SVG_NS, "line");
    line.setAttribute("x1", x1);
    line.setAttribute("y1", y1);
    line.setAttribute("x2", x1 + (x2 - x1) * k);
    line.setAttribute("y2", y1 + (y2 - y1) * k);
    line.setAttribute("class", "arrow-" + a.kind);
    line.setAttribute("data-from", a.from);
    line.setAttribute("data-to", a.to);
    line.setAttribute("marker-end", "url(#head-" + a.kind + "-" + (wrap.id || "w") + ")");
    svg.appendChild(line);
  }
  wrap.appendChild(svg);
}

function uciArrow(uci, kind) {
  return uci && uci.length >= 4 ? { from: uci.slice(0, 2), to: uci.slice(2, 4), kind } : null;
}

// The arrows of the position: the best move (QSearch on, or A) and the threat.
function positionArrows() {
  const r = state.result;
  if (!r || r.fen !== state.fen) return [];
  const best = r.mode === "ab" ? r.a : r.with;
  return [uciArrow(best && best.best_uci, "best"), uciArrow(r.threat && r.threat.uci, "threat")];
}

function drawMainBoard() {
  if (state.view) {
    const v = state.view;
    const fen = v.index === 0 ? v.root : v.fens[v.index - 1];
    const uci = v.index === 0 ? null : v.ucis[v.index - 1];
    drawBoard($("board"), fen, {
      last: uci ? [uci.slice(0, 2), uci.slice(2, 4)] : null,
      arrows: [uciArrow(uci, "line")],
    });
    $("view-text").textContent = v.title + ": " +
      (v.index === 0 ? "(start)" : numberedLine(v.root, v.sans.slice(0, v.index))) +
      " (" + v.index + "/" + v.fens.length + ")";
    return;
  }
  const targets = new Set(
    state.moves.filter((m) => m.from === state.selected).map((m) => m.to));
  drawBoard($("board"), state.fen, {
    selected: state.selected, targets, last: state.lastMove, arrows: positionArrows(),
  });
}

// The move numbers of a line from `fen`: for each move, its number text ("12." before a
// White move, "12..." before a first Black move, "" otherwise).
function moveNumbers(fen, count) {
  const f = (fen || "").split(" ");
  let n = Number(f[5]) || 1;
  let white = f[1] !== "b";
  const out = [];
  for (let i = 0; i < count; i++) {
    out.push(white ? n + "." : i === 0 ? n + "..." : "");
    if (!white) n++;
    white = !white;
  }
  return out;
}

// A line in SAN with its move numbers.
function numberedLine(fen, sans) {
  const nums = moveNumbers(fen, sans.length);
  return sans.map((s, i) => (nums[i] ? nums[i] + " " : "") + s).join(" ");
}

function showLine(title, root, line, index) {
  state.view = {
    title, root,
    fens: line.map((m) => m.fen),
    ucis: line.map((m) => m.uci || ""),
    sans: line.map((m) => m.san),
    index: index === undefined ? line.length : index,
  };
  $("view-bar").hidden = false;
  drawMainBoard();
}

function closeView() {
  state.view = null;
  $("view-bar").hidden = true;
  drawMainBoard();
}

async function setPosition(fen, keepHistory) {
  const data = await api("POST", "/api/moves", { fen });
  if (!keepHistory) state.history = [];
  const changed = data.fen !== state.fen;
  state.fen = data.fen;
  state.moves = data.moves;
  state.selected = null;
  state.view = null;
  $("view-bar").hidden = true;
  if (changed) state.treeMoves = null;
  $("fen").value = data.fen;
  const side = data.side === "white" ? "White" : "Black";
  $("position-status").textContent =
    data.status === "playing"
      ? side + " to move" + (data.in_check ? " (in check)" : "") + ", " + data.moves.length + " legal moves"
      : data.status === "checkmate" ? side + " is checkmated" : side + " is stalemated";
  fillTreeAt();
  drawMainBoard();
  updateStale();
  updateUrl();
}

// Results are shown only with their position: when the position on the board is not the one
// searched (a move, Set FEN, Undo), they are greyed and marked stale until searched again; a
// tree of another position is greyed too.
function updateStale() {
  const r = state.result;
  const stale = !!r && r.fen !== state.fen;
  $("results").classList.toggle("stale", stale);
  const banner = $("stale-banner");
  banner.hidden = !stale;
  banner.textContent = stale
    ? "Stale: these results are of the position before (" + r.fen + "), not of the one on the board. " +
      "Search to see this one; \"Tree at\" already shows trees of the position on the board."
    : "";
  const treeStale = state.treeFen !== null && state.treeFen !== state.fen && !!state.trees;
  $("tree-section").classList.toggle("stale", treeStale);
}

// Whether the result shown is of the position on the board.
function resultFresh() {
  return !!state.result && state.result.fen === state.fen;
}

function onBoardClick(event) {
  // A click on a line shown on the board goes back to the position and counts there.
  if (state.view) closeView();
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
      state.tourId = null;
      showError("");
      setPosition(move.fen, true).catch((e) => showError(e.message));
      return;
    }
  }
  state.selected = state.moves.some((m) => m.from === name) ? name : null;
  drawMainBoard();
}

// --- the page's state in its URL ---------------------------------------------------------

function updateUrl() {
  const params = new URLSearchParams();
  params.set("fen", state.fen);
  params.set("depth", $("depth").value);
  if (abMode()) params.set("ab", "1");
  for (const [k, v] of Object.entries(chosenOptions("a"))) params.set("a." + k, v);
  if (abMode()) for (const [k, v] of Object.entries(chosenOptions("b"))) params.set("b." + k, v);
  if (state.treeMoves !== null) params.set("tree", state.treeMoves.join(","));
  if (state.tourId) params.set("tour", state.tourId);
  history.replaceState(null, "", "/?" + params.toString());
}

function readUrlOptions(params) {
  for (const [key, value] of params) {
    const m = /^(a|b)\.(.+)$/.exec(key);
    if (!m) continue;
    const input = optionInput(m[1], m[2]);
    if (!input) continue;
    if (input.type === "checkbox") input.checked = value === "true";
    else input.value = value;
  }
}

// --- options ------------------------------------------------------------------------------

function optionInput(set, name) {
  return $((set === "a" ? "opt-" : "optb-") + name);
}

function makeInput(opt, set) {
  const input = document.createElement("input");
  input.id = (set === "a" ? "opt-" : "optb-") + opt.name;
  input.dataset.option = opt.name;
  input.dataset.set = set;
  if (opt.type === "check") {
    input.type = "checkbox";
    input.checked = opt.default;
  } else {
    input.type = "number";
    input.min = opt.min;
    input.max = opt.max;
    input.value = opt.default;
  }
  input.addEventListener("change", () => {
    state.tourId = null;
    markOptions();
    updateUrl();
    if (state.result) startSearch();
  });
  return input;
}

async function loadOptions() {
  const data = await api("GET", "/api/options");
  state.options = data.options;
  const body = $("options").querySelector("tbody");
  let group = null;
  for (const opt of data.options) {
    if (opt.group !== group) {
      group = opt.group;
      const tr = document.createElement("tr");
      tr.className = "group";
      const th = document.createElement("th");
      th.colSpan = 4;
      th.textContent = GROUPS[group] || group;
      tr.appendChild(th);
      body.appendChild(tr);
    }
    const tr = document.createElement("tr");
    tr.dataset.option = opt.name;
    if (opt.ab_only) tr.className = "ab-only";
    const name = document.createElement("td");
    name.textContent = opt.name;
    const doc = document.createElement("td");
    doc.className = "opt-doc-cell";
    doc.appendChild(explain(opt.name, OPTION_DOCS));
    name.title = opt.type === "check" ? "default " + opt.default
      : "default " + opt.default + ", from " + opt.min + " to " + opt.max;
    const a = document.createElement("td");
    a.className = "col-a";
    a.appendChild(makeInput(opt, "a"));
    const b = document.createElement("td");
    b.className = "col-b";
    b.appendChild(makeInput(opt, "b"));
    tr.append(name, a, b, doc);
    body.appendChild(tr);
  }
}

function inputValue(input, opt) {
  return opt.type === "check" ? input.checked : String(input.value);
}

// The options of set `set` ("a" or "b") that differ from their defaults. QSearch only in
// A/B (the horizon pair sets it).
function chosenOptions(set) {
  const out = {};
  for (const opt of state.options) {
    if (opt.ab_only && !abMode()) continue;
    const input = optionInput(set, opt.name);
    if (!input) continue;
    const v = inputValue(input, opt);
    if (String(v) !== String(opt.default)) out[opt.name] = opt.type === "check" ? v : v;
  }
  return out;
}

// Rows whose value is not the default, and in A/B the inputs where A and B differ.
function markOptions() {
  for (const opt of state.options) {
    const a = optionInput("a", opt.name), b = optionInput("b", opt.name);
    const row = a.closest("tr");
    const va = inputValue(a, opt), vb = inputValue(b, opt);
    row.classList.toggle("changed", String(va) !== String(opt.default) ||
      (abMode() && String(vb) !== String(opt.default)));
    const differs = abMode() && String(va) !== String(vb);
    a.classList.toggle("differs", differs);
    b.classList.toggle("differs", differs);
  }
  $("options-hint").textContent = abMode()
    ? "A and B are searched side by side, each with its own QSearch; highlighted: what differs."
    : "Both searches of the horizon pair use these options; QSearch is what they differ in.";
}

function resetOptions() {
  for (const opt of state.options) {
    for (const set of ["a", "b"]) {
      const input = optionInput(set, opt.name);
      if (opt.type === "check") input.checked = opt.default;
      else input.value = opt.default;
    }
  }
}

function setAbMode(on) {
  $("ab-mode").checked = on;
  document.body.classList.toggle("ab", on);
  markOptions();
}

// --- searching ------------------------------------------------------------------------------

async function startSearch() {
  showError("");
  if (state.job !== null) {
    api("POST", "/api/job/" + state.job + "/stop").catch(() => {});
    state.job = null;
  }
  updateUrl();
  const body = {
    fen: $("fen").value.trim() || state.fen,
    depth: $("depth").value,
    options: chosenOptions("a"),
  };
  if (abMode()) body.options_b = chosenOptions("b");
  if (state.treeMoves !== null) body.tree = state.treeMoves;
  $("progress").textContent = "searching...";
  let started;
  try {
    started = await api("POST", "/api/search", body);
  } catch (e) {
    // Refused (a bad depth, a full server): nothing is searching.
    $("progress").textContent = "";
    showError(e.message);
    return;
  }
  state.job = started.id;
  $("stop").hidden = false;
  $("progress").textContent = "searching...";
  poll(started.id);
}

const PHASES = { without: "QSearch off", with: "QSearch on", a: "set A", b: "set B", tree: "quiescence tree", threat: "threat", root_moves: "root moves" };

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
    const phase = PHASES[p.phase] || p.phase;
    $("progress").textContent = p.phase === "tree"
      ? "building the " + phase + "..."
      : p.phase === "threat"
      ? "looking for the threat..."
      : p.phase === "root_moves"
      ? "scoring the root moves with and without quiescence..."
      : phase + ": depth " + p.depth + ", " + p.nodes + " nodes, score " + (p.score_text || "?") +
        (p.pv.length ? ", pv " + p.pv.join(" ") : "");
    setTimeout(() => poll(id), 150);
    return;
  }
  state.job = null;
  $("stop").hidden = true;
  // A search the explorer's node or time cap cut short says so.
  const r = job.result || {};
  const cuts = [r.without, r.with, r.a, r.b].filter((s) => s && s.cut).map((s) => s.cut);
  $("progress").textContent =
    (job.state === "done" ? "done" : job.state === "stopped" ? "stopped: partial result" : "failed") +
    (cuts.length ? " (cut at " + cuts.join("; ") + ")" : "");
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

function optionsText(o) {
  const used = Object.entries(o || {}).map(([k, v]) => k + "=" + v);
  return used.length ? used.join(", ") : "defaults";
}

// The two searches of a result: [left, right] with their labels.
function columns(r) {
  return r.mode === "ab"
    ? [{ key: "a", label: "A", s: r.a }, { key: "b", label: "B", s: r.b }]
    : [{ key: "without", label: "QSearch off", s: r.without }, { key: "with", label: "QSearch on", s: r.with }];
}

function showResult(r) {
  state.result = r;
  const ab = r.mode === "ab";
  $("pair-view").hidden = ab;
  $("ab-view").hidden = !ab;
  const [left, right] = columns(r);
  if (ab) {
    const cells = [
      ["options", optionsText(r.options), optionsText(r.options_b)],
      ["score", left.s && left.s.score_text, right.s && right.s.score_text],
      ["best", left.s && (left.s.best || "(none)"), right.s && (right.s.best || "(none)")],
      ["nodes", left.s && left.s.nodes, right.s && right.s.nodes],
      ["qnodes", left.s && left.s.stats.qnodes, right.s && right.s.stats.qnodes],
      ["seldepth", left.s && left.s.seldepth, right.s && right.s.seldepth],
    ];
    for (const [name, va, vb] of cells) {
      const a = $(name + "-a"), b = $(name + "-b");
      a.textContent = va === undefined || va === null ? "" : va;
      b.textContent = vb === undefined || vb === null ? "" : vb;
      const differs = String(va) !== String(vb);
      a.classList.toggle("diff", differs);
      b.classList.toggle("diff", differs);
    }
    if (left.s) $("score-a").className = scoreClass(left.s.score) + (left.s.score_text !== (right.s && right.s.score_text) ? " diff" : "");
    if (right.s) $("score-b").className = scoreClass(right.s.score) + (right.s.score_text !== (left.s && left.s.score_text) ? " diff" : "");
  } else {
    for (const [key, side] of [["without", "without-qsearch"], ["with", "with-qsearch"]]) {
      const s = r[key];
      const cell = $("score-" + side);
      cell.textContent = s ? s.score_text : "(stopped)";
      cell.className = s ? scoreClass(s.score) : "score";
      $("best-" + side).textContent = s ? s.best || "(none)" : "";
      $("nodes-" + side).textContent = s ? s.nodes : "";
      $("seldepth-" + side).textContent = s ? s.seldepth : "";
    }
  }
  showNotes($(ab ? "ab-note" : "horizon-note"), r.notes || []);
  $(ab ? "horizon-note" : "ab-note").textContent = "";
  $("threat").textContent = r.threat
    ? "Threat: " + r.threat.san + " (the other side's best move were it to move now, " +
      r.threat.score_text + " for it)"
    : "";
  $("run-options").textContent = "Depth " + r.depth + "; options: " + optionsText(r.options) +
    (ab ? "; B: " + optionsText(r.options_b) : "");
  for (const [i, col] of [left, right].entries()) {
    const box = $(i === 0 ? "pv-without" : "pv-with");
    box.querySelector("h3").textContent = "PV, " + col.label;
    setupPv(box, r.fen, col.s ? col.s.pv : [], col.label);
  }
  showRootMoves(r);
  showIterations(r);
  showStats(r);
  state.treeMoves = r.tree_requested ? (r.tree ? r.tree.path_line.map((m) => m.uci) : state.treeMoves) : null;
  fillTreeAt();
  state.treeFen = r.fen;
  showTrees(r.tree, ab ? r.tree_b : null);
  drawMainBoard();
  updateStale();
  updateUrl();
}

// Each root move, one ply on: the static evaluation and the quiescence search after it.
function showRootMoves(r) {
  const box = $("root-moves-box");
  const rows = r.root_moves || [];
  box.hidden = !rows.length;
  const body = $("root-moves").querySelector("tbody");
  body.textContent = "";
  for (const m of rows) {
    const tr = document.createElement("tr");
    tr.dataset.uci = m.uci;
    const diff = m.qsearch - m.static;
    const mate = /M|mated|TB/.test(m.qsearch_text + m.static_text);
    if (mate || Math.abs(diff) >= 100) tr.classList.add("differs");
    for (const [text, cls] of [[m.san, ""], [m.static_text, ""], [m.qsearch_text, ""],
      [mate ? "" : (diff > 0 ? "+" : "") + diff, ""], [m.line.join(" "), "line"]]) {
      const td = document.createElement("td");
      td.textContent = text;
      if (cls) td.className = cls;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}

// The notes under a result: each sentence the server derived from the scores and lines shown.
function showNotes(box, notes) {
  box.textContent = "";
  if (!notes.length) return;
  const ul = document.createElement("ul");
  for (const n of notes) {
    const li = document.createElement("li");
    li.textContent = n;
    ul.appendChild(li);
  }
  box.appendChild(ul);
}

function setupPv(box, fen, line, label) {
  const board = box.querySelector(".board");
  const moves = box.querySelector(".moves");
  let index = 0; // moves played on the small board
  const draw = () => {
    const current = index === 0 ? fen : line[index - 1].fen;
    const last = index === 0 ? null : [line[index - 1].uci.slice(0, 2), line[index - 1].uci.slice(2, 4)];
    drawBoard(board, current, { last });
    moves.querySelectorAll("span[data-ply]").forEach((s, i) => s.classList.toggle("cur", i === index - 1));
  };
  moves.textContent = "";
  const nums = moveNumbers(fen, line.length);
  line.forEach((m, i) => {
    if (nums[i]) {
      const num = document.createElement("i");
      num.className = "num";
      num.textContent = nums[i];
      moves.appendChild(num);
    }
    const span = document.createElement("span");
    span.textContent = m.san;
    span.dataset.ply = i + 1;
    span.title = "the quiescence tree after " + m.san;
    span.addEventListener("click", () => {
      index = i + 1;
      draw();
      loadTree(line.slice(0, i + 1).map((x) => x.uci), fen);
    });
    moves.appendChild(span);
  });
  if (!line.length) moves.textContent = "(no moves)";
  box.querySelector(".back").onclick = () => { if (index > 0) { index--; draw(); } };
  box.querySelector(".fwd").onclick = () => { if (index < line.length) { index++; draw(); } };
  draw();
}

// --- iterations chart ------------------------------------------------------------------------

function svgEl(name, attrs, text) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// Score and best move at each depth of both searches: x the depth, y the score (centipawns
// from the side to move). Mates are drawn in bands of their own above and below the
// centipawn scale (never on one of its ticks), labelled with the mate. A best move is written
// where it changes; the labels of the two searches keep out of each other's way.
function showIterations(r) {
  const box = $("iterations");
  box.textContent = "";
  const series = columns(r).map((c) => ({ label: c.label, its: (c.s && c.s.iterations) || [] }));
  if (!series.some((s) => s.its.length)) {
    box.textContent = "(no iterations)";
    return;
  }
  const isMate = (t) => /M|mated/.test(t);
  const anyMate = series.some((s) => s.its.some((i) => isMate(i.score_text)));
  const W = 640, H = 280, L = 56, R = 20, T = 24, B = 44, BAND = anyMate ? 22 : 0;
  const plain = series.flatMap((s) => s.its.filter((i) => !isMate(i.score_text)).map((i) => Math.abs(i.score)));
  const lim = Math.min(1500, Math.max(100, ...plain) * 1.15);
  const maxDepth = Math.max(2, ...series.flatMap((s) => s.its.map((i) => i.depth)));
  const x = (d) => L + (d - 1) / (maxDepth - 1) * (W - L - R);
  const top = T + BAND, bottom = H - B - BAND;
  const y = (s) => top + (1 - (Math.max(-lim, Math.min(lim, s)) + lim) / (2 * lim)) * (bottom - top);
  const yOf = (i) => isMate(i.score_text) ? (i.score > 0 ? T + BAND / 2 : H - B - BAND / 2) : y(i.score);
  const svg = svgEl("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, id: "iterations-chart" });
  if (anyMate) {
    svg.appendChild(svgEl("rect", { x: L, y: T, width: W - L - R, height: BAND, class: "mate-band" }));
    svg.appendChild(svgEl("rect", { x: L, y: H - B - BAND, width: W - L - R, height: BAND, class: "mate-band" }));
    svg.appendChild(svgEl("text", { x: L - 6, y: T + BAND / 2 + 4, "text-anchor": "end" }, "mates"));
    svg.appendChild(svgEl("text", { x: L - 6, y: H - B - BAND / 2 + 4, "text-anchor": "end" }, "mated"));
  }
  // Axes, the zero line, ticks.
  svg.appendChild(svgEl("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" }));
  svg.appendChild(svgEl("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, class: "axis" }));
  svg.appendChild(svgEl("line", { x1: L, y1: y(0), x2: W - R, y2: y(0), class: "zero" }));
  const step = Math.max(1, Math.ceil(maxDepth / 12));
  for (let d = 1; d <= maxDepth; d += step) {
    svg.appendChild(svgEl("text", { x: x(d), y: H - B + 14, "text-anchor": "middle" }, String(d)));
  }
  const niceStep = [50, 100, 200, 250, 500].find((s) => lim / s <= 4) || 500;
  for (let v = -Math.floor(lim / niceStep) * niceStep; v <= lim; v += niceStep) {
    svg.appendChild(svgEl("line", { x1: L - 4, y1: y(v), x2: L, y2: y(v), class: "axis" }));
    svg.appendChild(svgEl("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end" }, (v > 0 ? "+" : "") + v));
  }
  svg.appendChild(svgEl("text", { x: (L + W - R) / 2, y: H - 8, "text-anchor": "middle", class: "axis-label" }, "depth (plies)"));
  svg.appendChild(svgEl("text", { x: 12, y: (T + H - B) / 2, "text-anchor": "middle", class: "axis-label",
    transform: "rotate(-90 12 " + (T + H - B) / 2 + ")" }, "score (centipawns, side to move)"));
  // Labels: placed one by one, each above or below its point (series 0 prefers above,
  // series 1 below), at the first spot whose box overlaps no label placed before.
  const placed = [];
  const overlaps = (bx) => placed.some((p) => bx.x1 < p.x2 && p.x1 < bx.x2 && bx.y1 < p.y2 && p.y1 < bx.y2);
  const points = [];
  series.forEach((s, k) => {
    const pts = s.its.map((i) => [x(i.depth), yOf(i), i]);
    svg.appendChild(svgEl("polyline", { points: pts.map((p) => p[0] + "," + p[1]).join(" "), class: "s" + k }));
    for (const p of pts) points.push([k, ...p]);
  });
  for (const [k, px, py] of points) placed.push({ x1: px - 4, x2: px + 4, y1: py - 4, y2: py + 4 });
  series.forEach((s, k) => {
    let prev = null;
    for (const i of s.its) {
      const text = (i.best || "") + (isMate(i.score_text) ? " " + i.score_text : "");
      const changed = text !== prev;
      prev = text;
      if (!changed || !text) continue;
      const px = x(i.depth), py = yOf(i), w = text.length * 6.2 + 2;
      const offsets = k === 0 ? [-9, 17, -21, 29] : [17, -9, 29, -21];
      for (const dy of offsets) {
        const bx = { x1: px - w / 2, x2: px + w / 2, y1: py + dy - 10, y2: py + dy + 1 };
        if (bx.y1 < 0 || bx.y2 > H - B + 2 || overlaps(bx)) continue;
        placed.push(bx);
        svg.appendChild(svgEl("text", { x: px, y: py + dy, "text-anchor": "middle", class: "best s" + k }, text));
        break;
      }
    }
  });
  for (const [k, px, py, i] of points) {
    const s = series[k];
    const c = svgEl("circle", {
      cx: px, cy: py, r: 4, class: "it-point s" + k,
      "data-series": s.label, "data-depth": i.depth, "data-score": i.score_text, "data-best": i.best || "",
    });
    c.appendChild(svgEl("title", {}, s.label + ", depth " + i.depth + ": " + (i.best || "-") + " " + i.score_text + " (" + i.nodes + " nodes)"));
    svg.appendChild(c);
  }
  series.forEach((s, k) => {
    svg.appendChild(svgEl("circle", { cx: L + 12 + k * 150, cy: 10, r: 4, class: "s" + k }));
    svg.appendChild(svgEl("text", { x: L + 20 + k * 150, y: 14 }, s.label));
  });
  box.appendChild(svg);
}

// --- statistics ------------------------------------------------------------------------------

function showStats(r) {
  const cols = columns(r);
  const body = $("stats").querySelector("tbody");
  const head = $("stats").querySelectorAll("thead th");
  head[1].textContent = cols[0].label;
  head[2].textContent = cols[1].label;
  body.textContent = "";
  const rows = new Map();
  cols.forEach((c, k) => {
    if (!c.s) return;
    for (const [name, value] of c.s.stats_table) {
      if (!rows.has(name)) rows.set(name, ["", ""]);
      rows.get(name)[k] = value;
    }
  });
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
    if (r.mode === "ab" && values[0] !== values[1]) tr.classList.add("diff");
    body.appendChild(tr);
  }
  // The q-ply histogram: a column only for a search with quiescence nodes, a row only for a
  // q-ply that one of them reached.
  const table = $("qply-table");
  const used = cols.filter((c) => c.s && c.s.stats.qnodes > 0);
  const thead = table.querySelector("thead"), tbody = table.querySelector("tbody");
  thead.textContent = "";
  tbody.textContent = "";
  const trh = document.createElement("tr");
  for (const t of ["q-ply", ...used.map((c) => c.label)]) {
    const th = document.createElement("th");
    th.textContent = t;
    trh.appendChild(th);
  }
  thead.appendChild(trh);
  const buckets = used.length ? used[0].s.stats.qply_hist.length : 0;
  for (let p = 0; p < buckets; p++) {
    if (!used.some((c) => c.s.stats.qply_hist[p] > 0)) continue;
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.textContent = p === buckets - 1 ? p + "+" : String(p);
    tr.appendChild(th);
    for (const c of used) {
      const n = c.s.stats.qply_hist[p];
      const td = document.createElement("td");
      td.textContent = n + " (" + (100 * n / c.s.stats.qnodes).toFixed(1) + "%)";
      tr.appendChild(td);
    }
    tbody.appendChild(tr);
  }
  table.hidden = !used.length;
  const none = cols.filter((c) => c.s && c.s.stats.qnodes === 0).map((c) => c.label);
  $("qply-note").textContent = none.length ? "No quiescence nodes in: " + none.join(", ") + "." : "";
}

// --- quiescence tree ------------------------------------------------------------------------------

// The "Tree at" list: the horizon, the root, and each legal move of the position.
function fillTreeAt() {
  const sel = $("tree-at");
  const current = state.treeMoves === null ? "horizon" : state.treeMoves.join(",");
  sel.textContent = "";
  const add = (value, text) => {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    sel.appendChild(o);
  };
  add("horizon", "the horizon (end of the left PV)");
  add("", "the root position");
  for (const m of state.moves) add(m.uci, "after the root move " + m.san);
  if (![...sel.options].some((o) => o.value === current)) add(current, "after " + current.split(",").join(" "));
  sel.value = current;
}

// The tree after `moves` from `fen` (by default the position on the board: "Tree at" lists
// its moves), with the options of the result when it is of that position, else the options
// set now.
async function loadTree(moves, fen) {
  showError("");
  fen = fen || state.fen;
  state.treeMoves = moves;
  state.tourId = null;
  updateUrl();
  fillTreeAt();
  const r = state.result && state.result.fen === fen ? state.result : null;
  const ab = r ? r.mode === "ab" : abMode();
  try {
    const a = await api("POST", "/api/tree", { fen, moves, options: r ? r.options : chosenOptions("a") });
    const b = ab ? await api("POST", "/api/tree", { fen, moves, options: r ? r.options_b : chosenOptions("b") }) : null;
    state.treeFen = fen;
    showTrees(a, b, "");
    updateStale();
  } catch (e) {
    showError(e.message);
  }
}

function nodeKey(path, node) {
  return path + "/" + node.label;
}

// Keys and scores of every searched node of a tree, for the A/B comparison.
function treeIndex(tree) {
  const out = new Map();
  const walk = (node, path) => {
    if (node.kind !== "node") return;
    const key = nodeKey(path, node);
    out.set(key, node.score_text);
    for (const c of node.children || []) walk(c, key);
  };
  if (tree && tree.root) walk(tree.root, "");
  return out;
}

function treeHeader(tree, where) {
  if (!tree || !tree.root) return tree ? "The quiescence search recorded no tree." : "(no tree: the search was stopped)";
  const at = tree.path && tree.path.length ? "after " + tree.path.join(" ") : "at the root";
  return "Quiescence search " + at + (where ? " (" + where + ")" : "") + ", full window: result " +
    tree.score_text + " for the side to move there" +
    (tree.pv.length ? ", line " + tree.pv.join(" ") : ", no line: " + (tree.no_line || "standing pat is best")) + "; " +
    tree.shown_nodes + " searched nodes and " + tree.shown_pruned + " pruned moves shown, " +
    tree.qnodes + " q-nodes in all" + (tree.truncated ? " (tree cut at " + tree.max_nodes + ")" : "") +
    (tree.limited ? "; " + tree.limited : "") + ". Scores and windows are from the side to move at each node; bold moves lie on the PV.";
}

function showTrees(a, b, where) {
  // `where`: why the tree is where it is (undefined: from the result).
  if (where === undefined && state.treeWhere !== undefined && state.trees && state.trees[0] === a) where = state.treeWhere;
  state.trees = b ? [a, b] : [a];
  state.pinned = null;
  if (state.view) closeView();
  showDetail(null);
  if (where === undefined && state.result && a) {
    where = state.result.tree_requested ? "" :
      (state.result.mode === "ab" ? "the end of A's main-search line" :
        "the end of the PV without quiescence: where that search evaluated statically");
  }
  state.treeWhere = where;
  const ia = treeIndex(a), ib = b ? treeIndex(b) : null;
  $("tree-header").textContent = treeHeader(a, where) + (b ? " This tree: option set A." : "");
  drawTree($("tree"), a, ib, 0);
  $("tree-b-box").hidden = !b;
  if (b) {
    $("tree-b-header").textContent = treeHeader(b, "");
    drawTree($("tree-b"), b, ia, 1);
  }
}

function drawTree(area, tree, other, which) {
  area.textContent = "";
  if (!tree || !tree.root) return;
  const ul = document.createElement("ul");
  ul.appendChild(treeItem(tree, tree.root, 0, "", [], other, which));
  area.appendChild(ul);
}

function windowText(w) {
  return "[" + w[0] + ", " + w[1] + "]";
}

// A score text negated: "+35" and "-35", "M2" and "-M2", "+\u221e" and "-\u221e".
function negText(t) {
  if (t === null || t === undefined || t === "0" || t === "?") return t;
  if (t === "mated") return "mated (White mates)";
  if (t === "TB win") return "TB loss";
  if (t === "TB loss") return "TB win";
  if (t.startsWith("-")) return (/^-[M]/.test(t) ? "" : "+") + t.slice(1);
  if (t.startsWith("+")) return "-" + t.slice(1);
  return "-" + t;
}

// Whether Black is to move at a tree node (its scores are Black's).
function blackToMove(node) {
  return !!node.fen && node.fen.split(" ")[1] === "b";
}

// A node's score, window and stand pat as shown: from the side to move there, or with
// "Tree scores from White's view" all from White's side (Black's negated, windows swapped).
function shown(node) {
  const flip = $("white-view").checked && blackToMove(node);
  const w = node.window || ["", ""];
  return {
    score: flip ? negText(node.score_text) : node.score_text,
    window: flip ? [negText(w[1]), negText(w[0])] : w,
    standPat: flip ? negText(node.stand_pat_text) : node.stand_pat_text,
  };
}

// One node of the tree; `line` holds the moves from the tree's root to it (san, uci, fen).
function treeItem(tree, node, depth, path, line, other, which) {
  const li = document.createElement("li");
  const toggle = document.createElement("span");
  toggle.className = "toggle";
  li.appendChild(toggle);
  const label = document.createElement("span");
  const here = node === tree.root ? line : line.concat([{ san: node.label, uci: node.uci || "", fen: node.fen }]);
  const key = nodeKey(path, node);
  if (node.kind === "pruned") {
    label.className = "qpruned";
    label.textContent = node.label + "  (" + node.reason + ")";
  } else {
    label.className = "qnode" + (node.on_pv ? " onpv" : "");
    if (other && other.get(key) !== node.score_text) label.classList.add("diff");
    const mv = document.createElement("span");
    mv.className = "mv";
    mv.textContent = node.label;
    label.appendChild(mv);
    const v = shown(node);
    label.appendChild(document.createTextNode(
      "  " + (v.score || "?") + "  " + windowText(v.window) + "  " + node.end));
  }
  label.addEventListener("mouseenter", () => showDetail(node));
  label.addEventListener("mouseleave", () => showDetail(state.pinned ? state.pinned.node : null));
  label.addEventListener("click", () => {
    if (state.pinned) state.pinned.el.classList.remove("selected");
    state.pinned = { node, el: label };
    label.classList.add("selected");
    showDetail(node);
    // The line to this node on the big board: the moves to the tree's root, then the tree's.
    const lineHere = node.kind === "pruned"
      ? here.concat([{ san: node.label, uci: node.uci, fen: node.fen }]) : here;
    const full = (tree.path_line || []).concat(lineHere);
    showLine("Tree line" + (which ? " (B)" : ""), state.treeFen || state.fen, full);
  });
  li.appendChild(label);
  const kids = node.children || [];
  if (kids.length) {
    toggle.textContent = "\u25BE";
    const ul = document.createElement("ul");
    for (const child of kids) ul.appendChild(treeItem(tree, child, depth + 1, key, here, other, which));
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
    p.textContent = "Hover a node to see its position, its pruned moves and why; click it to keep it here and to step through its line on the big board.";
    box.appendChild(p);
    return;
  }
  const title = document.createElement("h3");
  title.id = "node-title";
  title.textContent = node.kind === "pruned" ? node.label + " (pruned)" : node.label;
  box.appendChild(title);
  if (node.fen) {
    const wrap = document.createElement("div");
    wrap.className = "board-wrap tiny";
    const board = document.createElement("div");
    board.className = "board tiny";
    wrap.appendChild(board);
    box.appendChild(wrap);
    drawBoard(board, node.fen, {});
  }
  const dl = document.createElement("dl");
  dl.id = "node-fields";
  const view = $("white-view").checked ? "White's view" : "side to move";
  if (node.kind === "pruned") {
    addField(dl, "why", node.reason);
    dl.lastChild.appendChild(document.createElement("br"));
    dl.lastChild.appendChild(explain(node.reason_kind));
    if (node.delta) addField(dl, "delta", node.delta);
    if (node.see !== null && node.see !== undefined) addField(dl, "SEE", node.see + " (centipawns for the side capturing)");
    addField(dl, "position after", node.fen || "?");
  } else {
    const v = shown(node);
    addField(dl, "q-ply", node.qply + " (plies past the horizon)");
    addField(dl, "window", windowText(v.window) + " (" + view + "; \u221e: no bound)");
    addField(dl, "in check", node.in_check ? "yes (no standing pat: every evasion is searched)" : "no");
    addField(dl, "stand pat", (v.standPat || "-") + (node.stand_pat_text ? " (static evaluation, " + view + ")" : ""));
    addField(dl, "score", (v.score || "?") + " (" + view + ")");
    addField(dl, "ended by", node.end);
    dl.lastChild.appendChild(document.createElement("br"));
    dl.lastChild.appendChild(explain(node.end_kind));
    addField(dl, "FEN", node.fen || "?");
  }
  box.appendChild(dl);
  if (node.kind !== "pruned" && node.fen) {
    showEvalBreakdown(box, node.fen).catch((e) => showError(e.message));
  }
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
        li.textContent = p.label + ": " + p.reason + (p.delta ? " (" + p.delta + ")" : "");
        ul.appendChild(li);
      }
      box.appendChild(ul);
    }
  }
}

// The static evaluation a node stands pat on, taken apart: the hand-crafted terms (White's
// view, tapered by the game phase), the drawish scaling, side to move and tempo; and the
// network's output bucket and output. Appended to `box` unless another node took its place.
async function showEvalBreakdown(box, fen) {
  const data = await api("POST", "/api/eval", { fen });
  if (!box.isConnected || !box.contains($("node-fields"))) return;
  const section = document.createElement("div");
  section.id = "node-eval";
  const h = document.createElement("h4");
  h.textContent = "Static evaluation";
  section.appendChild(h);
  const hce = data.hce;
  const table = document.createElement("table");
  table.className = "eval-terms";
  const head = table.insertRow();
  for (const t of ["hand-crafted term", "mg", "eg", "White (cp)"]) {
    const th = document.createElement("th");
    th.textContent = t;
    head.appendChild(th);
  }
  for (const t of hce.terms) {
    if (t.mg === 0 && t.eg === 0) continue;
    const row = table.insertRow();
    for (const v of [t.term, t.mg, t.eg, t.white]) row.insertCell().textContent = v;
  }
  section.appendChild(table);
  const p = document.createElement("p");
  p.className = "hint";
  p.textContent =
    "Tapered at phase " + hce.phase + " (" + hce.phase_total + ": all pieces on, 0: none): White " + hce.white_unscaled +
    (hce.drawish_divisor > 1 ? ", divided by " + hce.drawish_divisor + " (drawish material) to " + hce.white : "") +
    "; for the side to move with the tempo (" + (hce.tempo >= 0 ? "+" : "") + hce.tempo + "): " +
    (hce.total >= 0 ? "+" : "") + hce.total + " cp.";
  section.appendChild(p);
  if (data.nnue) {
    const n = document.createElement("p");
    n.className = "hint";
    n.textContent =
      "The network (used when Use NNUE is on): " + data.nnue.pieces + " pieces, output bucket " +
      data.nnue.bucket + " of " + data.nnue.buckets + ", output " + (data.nnue.total >= 0 ? "+" : "") +
      data.nnue.total + " cp for the side to move.";
    section.appendChild(n);
  }
  const old = $("node-eval");
  if (old) old.remove();
  const after = $("node-fields");
  after.parentNode.insertBefore(section, after.nextSibling);
}

// --- the guided tour ------------------------------------------------------------------------------

async function loadTour() {
  const data = await api("GET", "/api/tour");
  state.tour = data.stops;
  const list = $("tour-list");
  for (const stop of data.stops) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "tour-stop";
    b.dataset.tour = stop.id;
    b.textContent = stop.title;
    b.addEventListener("click", () => openTourStop(stop.id).catch((e) => showError(e.message)));
    list.appendChild(b);
  }
}

function showTourText() {
  const stop = state.tour.find((s) => s.id === state.tourId);
  document.querySelectorAll(".tour-stop").forEach((b) => b.classList.toggle("current", b.dataset.tour === state.tourId));
  const box = $("tour-text");
  box.textContent = "";
  if (!stop) return;
  const h = document.createElement("strong");
  h.textContent = stop.title + ". ";
  box.append(h, document.createTextNode(stop.text));
}

// Opens a stop: its position, depth, options (A, and B for an A/B stop) and tree, searched.
async function openTourStop(id) {
  const stop = state.tour.find((s) => s.id === id);
  if (!stop) throw new Error("no tour stop '" + id + "'");
  resetOptions();
  setAbMode(!!stop.options_b);
  for (const [set, opts] of [["a", stop.options], ["b", stop.options_b || {}]]) {
    for (const [name, value] of Object.entries(opts)) {
      const input = optionInput(set, name);
      if (!input) continue;
      if (input.type === "checkbox") input.checked = value === "true";
      else input.value = value;
    }
  }
  markOptions();
  $("depth").value = stop.depth;
  state.lastMove = null;
  await setPosition(stop.fen);
  state.tourId = id;
  state.treeMoves = stop.tree === null || stop.tree === undefined ? null : stop.tree.slice();
  showTourText();
  fillTreeAt();
  await startSearch();
}

// --- start ------------------------------------------------------------------------------

async function init() {
  $("board").addEventListener("click", onBoardClick);
  $("set-fen").addEventListener("click", () => {
    showError("");
    state.lastMove = null;
    state.tourId = null;
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
  $("depth").addEventListener("change", () => { state.tourId = null; updateUrl(); if (state.result) startSearch(); });
  $("ab-mode").addEventListener("change", () => {
    state.tourId = null;
    setAbMode(abMode());
    updateUrl();
    if (state.result) startSearch();
  });
  $("tree-at").addEventListener("change", () => {
    const v = $("tree-at").value;
    if (v === "horizon") {
      state.treeMoves = null;
      if (state.result) startSearch();
      return;
    }
    loadTree(v === "" ? [] : v.split(","));
  });
  $("view-back").addEventListener("click", () => { if (state.view && state.view.index > 0) { state.view.index--; drawMainBoard(); } });
  $("view-fwd").addEventListener("click", () => { if (state.view && state.view.index < state.view.fens.length) { state.view.index++; drawMainBoard(); } });
  $("view-close").addEventListener("click", closeView);
  // Keys step through the line shown on the big board (not while typing in a field).
  document.addEventListener("keydown", (e) => {
    if (!state.view || /^(INPUT|SELECT|TEXTAREA)$/.test((e.target && e.target.tagName) || "")) return;
    if (e.key === "ArrowLeft") { $("view-back").click(); e.preventDefault(); }
    else if (e.key === "ArrowRight") { $("view-fwd").click(); e.preventDefault(); }
    else if (e.key === "Escape") { closeView(); }
  });
  $("white-view").addEventListener("change", () => {
    if (state.trees) {
      const pinned = state.pinned;
      const [a, b] = state.trees;
      const view = state.view;
      showTrees(a, b || null, undefined);
      if (view) { state.view = view; $("view-bar").hidden = false; drawMainBoard(); }
      if (pinned) showDetail(pinned.node);
    }
  });
  const params = new URLSearchParams(location.search);
  if (params.get("depth")) $("depth").value = params.get("depth");
  try {
    await loadOptions();
    await loadTour();
  } catch (e) {
    showError(e.message);
  }
  setAbMode(params.get("ab") === "1");
  readUrlOptions(params);
  markOptions();
  const tour = params.get("tour");
  const fen = params.get("fen");
  if (tour && (!fen || (state.tour.find((s) => s.id === tour) || {}).fen === fen)) {
    try {
      await openTourStop(tour);
    } catch (e) {
      showError(e.message);
    }
    return;
  }
  try {
    await setPosition(fen || START_FEN);
  } catch (e) {
    showError(e.message);
    $("fen").value = fen;
    return;
  }
  if (params.has("tree")) {
    const t = params.get("tree");
    state.treeMoves = t === "" ? [] : t.split(",");
    fillTreeAt();
  }
  if (fen) startSearch();
}

init();
