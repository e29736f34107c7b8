// The page's training loop (web/page.html), in a Web Worker so that the page stays
// responsive while the model trains. The worker's code is the WebAssembly module's
// (its JavaScript, the module inside) followed by this file, made into a Blob by the
// page: nothing is fetched. One thread: a file:// page cannot share memory between
// workers (docs/web.md).
//
// From the page: {type: "start", knobs}, {type: "stop"}, {type: "resume"}.
// To the page: "error" {message}; "progress" {step, steps, losses (the new ones),
// stepsPerSecond}; "attention" {step, data (plot::explorer_data's JSON)}; "evaluating";
// "done" {text: the held-out decodes, the exact-match line last}.
"use strict";

const ATTENTION_EVERY = 50;  // steps between views of the attention: an epoch of copy_task's
const CHUNK_MS = 100;        // steps run between looks at the page's messages
let ready = false, pending = null, running = false;
let steps = 0, lastAttention = -1;

const lectern = {
  init: knobs => Module.ccall("lectern_init", "number", ["string"], [knobs]),
  step: () => Module._lectern_step(),
  stepsDone: () => Module._lectern_steps_done(),
  steps: () => Module._lectern_steps(),
  done: () => Module._lectern_done() !== 0,
  attention: () => Module.UTF8ToString(Module._lectern_attention()),
  evaluate: () => Module.UTF8ToString(Module._lectern_evaluate()),
  error: () => Module.UTF8ToString(Module._lectern_error()),
};

Module.onRuntimeInitialized = () => {
  ready = true;
  if (pending) start(pending);
};

function postAttention() {
  const data = lectern.attention();
  if (data === "") return postMessage({type: "error", message: lectern.error()});
  lastAttention = lectern.stepsDone();
  postMessage({type: "attention", step: lastAttention, data});
}

function start(knobs) {
  running = false;
  if (!lectern.init(JSON.stringify(knobs))) return postMessage({type: "error", message: lectern.error()});
  steps = lectern.steps();
  postMessage({type: "progress", step: 0, steps, losses: [], stepsPerSecond: 0});
  postAttention();
  running = true;
  setTimeout(train, 0);
}

// Steps for CHUNK_MS, then their losses to the page, then a turn of the event loop so
// that a "stop" can arrive.
function train() {
  if (!running) return;
  const losses = [], began = performance.now();
  while (!lectern.done() && performance.now() - began < CHUNK_MS) {
    const loss = lectern.step();
    if (Number.isNaN(loss)) {
      running = false;
      return postMessage({type: "error", message: lectern.error()});
    }
    losses.push(loss);
    if (lectern.stepsDone() % ATTENTION_EVERY === 0) break;
  }
  const seconds = (performance.now() - began) / 1000;
  const step = lectern.stepsDone();
  postMessage({type: "progress", step, steps, losses, stepsPerSecond: seconds > 0 ? losses.length / seconds : 0});
  if (step % ATTENTION_EVERY === 0 || lectern.done()) postAttention();
  if (!lectern.done()) return setTimeout(train, 0);
  running = false;
  postMessage({type: "evaluating"});
  const text = lectern.evaluate();
  if (text === "") return postMessage({type: "error", message: lectern.error()});
  postMessage({type: "done", text});
}

onmessage = e => {
  const m = e.data;
  if (m.type === "start") {
    if (ready) start(m.knobs);
    else pending = m.knobs;
  } else if (m.type === "stop") {
    running = false;
  } else if (m.type === "resume" && !running && ready && !lectern.done() && lectern.stepsDone() > 0) {
    running = true;
    setTimeout(train, 0);
  }
};
