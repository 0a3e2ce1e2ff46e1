// app.js: the web view of a kubesim run. It reads the run's events (/events, server-sent events) and
// shows them; its buttons post the prompt's commands to /command. Nothing here decides anything: the
// run, its order and its words come from the server.
"use strict";

const $ = (id) => document.getElementById(id);
const lanes = [];            // component names, in the order of their lanes
const fixedLanes = ["kubectl", "kube-apiserver", "etcd", "deployment-controller", "replicaset-controller", "kube-scheduler"];
let paused = false, ended = false, newRows = [];

function setButtons() {
  for (const b of document.querySelectorAll("#controls button")) b.disabled = !paused || ended;
}

// laneOf returns the lane of a component, adding a column the first time it acts.
function laneOf(component) {
  let i = lanes.indexOf(component);
  if (i >= 0) return i;
  lanes.push(component);
  const th = document.createElement("th");
  th.className = "lane lane-" + ((lanes.length - 1) % 8);
  th.title = component;
  const span = document.createElement("span");
  span.textContent = component;
  th.appendChild(span);
  const head = $("lane-head");
  if (head.lastChild && head.lastChild.classList && head.lastChild.classList.contains("msg-head")) {
    head.insertBefore(th, head.lastChild);
  } else {
    head.appendChild(th);
  }
  for (const tr of $("lane-body").children) {
    if (tr.children.length === 1) { tr.firstChild.colSpan++; continue; }
    const td = document.createElement("td");
    td.className = "dot";
    tr.insertBefore(td, tr.lastChild);
  }
  return lanes.length - 1;
}

function addLine(line) {
  $("story").textContent += line.text + "\n";
  if (line.kind === "header" || (line.kind === "note" && !line.text.trim())) return;
  const tr = document.createElement("tr");
  tr.className = line.kind;
  if (line.kind === "event" || (line.kind === "note" && line.component)) {
    const lane = laneOf(line.component);
    tr.dataset.component = line.component;
    tr.insertAdjacentHTML("beforeend", "<td></td><td></td>");
    tr.children[0].textContent = line.seq || "";
    tr.children[1].textContent = line.time || "";
    for (let i = 0; i < lanes.length; i++) {
      const td = document.createElement("td");
      td.className = "dot" + (i === lane && line.kind === "event" ? " on lane-" + (i % 8) : "");
      td.title = lanes[i];
      tr.appendChild(td);
    }
    const msg = document.createElement("td");
    msg.className = "msg";
    msg.textContent = (line.kind === "event" ? line.component + ": " : "") + line.message;
    tr.appendChild(msg);
  } else {
    const td = document.createElement("td");
    td.colSpan = lanes.length + 3;
    td.textContent = line.text;
    tr.appendChild(td);
  }
  $("lane-body").appendChild(tr);
  newRows.push(tr);
}

function showState(st) {
  paused = !st.running;
  for (const tr of document.querySelectorAll("#lane-body tr.new")) tr.classList.remove("new");
  for (const tr of newRows) tr.classList.add("new");
  if (newRows.length) newRows[newRows.length - 1].scrollIntoView({ block: "nearest" });
  newRows = [];
  const where = $("where");
  where.className = st.why ? "break" : "";
  where.textContent = st.running ? "running…" : st.why ? "paused before " + st.why : "paused";
  $("clock").textContent = "· cluster time " + st.clusterTime + " · etcd revision " + st.revision;
  $("breakpoints").textContent = st.breakpoints ? "breakpoints: " + st.breakpoints.join(" · ") : "";
  const tables = $("tables");
  tables.textContent = "";
  let pods = null, nodes = null;
  for (const t of st.tables) {
    if (t.kind === "pods") pods = t;
    if (t.kind === "nodes") nodes = t;
    const table = document.createElement("table");
    table.className = "kubectl";
    table.id = "table-" + t.kind;
    table.createCaption().textContent = t.kind;
    const head = table.createTHead().insertRow();
    for (const h of t.head) head.insertAdjacentHTML("beforeend", "<th></th>"), head.lastChild.textContent = h;
    const body = table.createTBody();
    const rows = t.rows || [];
    if (!rows.length) body.insertRow().insertCell().textContent = "No resources found";
    for (const r of rows) {
      const row = body.insertRow();
      for (const c of r) row.insertCell().textContent = c;
    }
    tables.appendChild(table);
  }
  showNodes(nodes, pods);
  setButtons();
}

// showNodes draws each node with the pods bound to it, and the pods no node has yet.
function showNodes(nodes, pods) {
  const box = $("nodes");
  box.textContent = "";
  const col = (t, name) => t ? t.head.indexOf(name) : -1;
  const byNode = new Map();
  const add = (name, status, cls, key) => {
    const div = document.createElement("div");
    div.className = "node " + cls;
    div.dataset.node = name;
    div.innerHTML = "<h3></h3>";
    div.firstChild.textContent = name;
    if (status) div.firstChild.insertAdjacentHTML("beforeend", `<span class="badge ${status.split(",")[0]}"></span>`), div.firstChild.lastChild.textContent = status;
    box.appendChild(div);
    byNode.set(key || name, div);
  };
  if (nodes) for (const r of nodes.rows || []) add(r[0], r[col(nodes, "STATUS")], "");
  if (pods) {
    for (const r of pods.rows || []) {
      const node = r[col(pods, "NODE")];
      if (!byNode.has(node)) add(node === "<none>" ? "not scheduled yet" : node, "", "unscheduled", node);
      const status = r[col(pods, "STATUS")];
      const div = document.createElement("div");
      div.className = "pod";
      div.dataset.pod = r[0];
      div.textContent = r[0];
      div.insertAdjacentHTML("beforeend", `<span class="badge ${status}"></span>`);
      div.lastChild.textContent = status;
      byNode.get(node).appendChild(div);
    }
  }
}

function send(line) {
  paused = false;
  setButtons();
  $("where").className = "";
  $("where").textContent = "running: " + line;
  fetch("command", { method: "POST", body: line });
}

$("next").onclick = () => send("next");
$("section").onclick = () => send("section");
$("continue").onclick = () => send("continue");
$("until-form").onsubmit = (e) => { e.preventDefault(); send("until " + $("until").value); };
$("command-form").onsubmit = (e) => { e.preventDefault(); send($("command").value); };

for (const c of fixedLanes) laneOf(c);
$("lane-head").insertAdjacentHTML("beforeend", '<th class="msg-head">what happened</th>');
setButtons();

const events = new EventSource("events");
events.onmessage = (m) => {
  const e = JSON.parse(m.data);
  switch (e.type) {
    case "title": $("title").textContent = e.text; document.title = e.text; break;
    case "line": addLine(e.line); break;
    case "state": showState(e.state); break;
    case "answer": $("answer").textContent = e.text; break;
    case "end":
      ended = true;
      $("where").className = "ended";
      $("where").textContent = "the run is over" + (e.text ? ": " + e.text : "");
      setButtons();
      events.close();
      break;
  }
};
