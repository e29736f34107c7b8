// The training session as the page's Web Worker calls it (web/worker.js): C functions
// exported from the WebAssembly module. Text crosses as UTF-8 in the module's memory;
// a returned pointer stays good until the next call. No C++ exception crosses into
// JavaScript: each call catches, and lectern_error() says what went wrong, in one line.
#include <emscripten/emscripten.h>

#include <cmath>
#include <exception>
#include <memory>
#include <string>

#include "lectern/autograd/autograd.h"
#include "web/training_session.h"

namespace {

std::unique_ptr<web::TrainingSession> session;
std::string error, text;

template <class Work>
bool attempt(Work work) {
    try {
        error.clear();
        work();
        return true;
    } catch (const std::exception& e) {
        error = e.what();
        return false;
    }
}

}  // namespace

extern "C" {

// Starts a session with the knobs of a JSON object; 1, or 0 with lectern_error() set.
EMSCRIPTEN_KEEPALIVE int lectern_init(const char* knobs) {
    return attempt([&] {
        session.reset();
        autograd::set_num_threads(1);
        session = std::make_unique<web::TrainingSession>(web::parse_config(knobs));
    });
}

// One step's loss; NaN with lectern_error() set when the step could not run.
EMSCRIPTEN_KEEPALIVE double lectern_step() {
    double loss = std::nan("");
    if (!attempt([&] {
            if (!session) throw autograd::ValueError("no session: lectern_init first");
            loss = session->step();
        }))
        return std::nan("");
    return loss;
}

EMSCRIPTEN_KEEPALIVE int lectern_steps_done() { return session ? static_cast<int>(session->steps_done()) : 0; }
EMSCRIPTEN_KEEPALIVE int lectern_steps() { return session ? static_cast<int>(session->config().steps) : 0; }
EMSCRIPTEN_KEEPALIVE int lectern_done() { return session && session->done(); }

// The explorer's data (plot::explorer_data) for the held-out sequence; "" on error.
EMSCRIPTEN_KEEPALIVE const char* lectern_attention() {
    text.clear();
    attempt([&] {
        if (!session) throw autograd::ValueError("no session: lectern_init first");
        text = plot::explorer_data(session->attention());
    });
    return text.c_str();
}

// The held-out decodes, then the exact-match line last; "" on error.
EMSCRIPTEN_KEEPALIVE const char* lectern_evaluate() {
    text.clear();
    attempt([&] {
        if (!session) throw autograd::ValueError("no session: lectern_init first");
        const web::TrainingSession::Evaluation e = session->evaluate();
        text = e.shown + e.line;
    });
    return text.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* lectern_error() { return error.c_str(); }

}  // extern "C"
